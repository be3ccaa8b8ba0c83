import type { EventRecord } from '../contract/events.js';

/** The part of a WebSocket the stream uses; a test can stand in for it. */
export interface StreamSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
  readonly bufferedAmount: number;
}

export interface StreamOptions {
  socket: StreamSocket;
  /** Reads up to `limit` events after `after`, in seq order. */
  read(after: number, limit: number): Promise<EventRecord[]>;
  after: number;
  page?: number;
  /** Bytes queued in the socket beyond which the client is cut off. */
  maxBuffered?: number;
  onError?(err: unknown): void;
}

export const DEFAULT_MAX_BUFFERED = 4 * 1024 * 1024;

/**
 * One client's stream of the event log. Pull, not push: the client reads the log from its own last
 * seq each time it is told something was stored, so the switch from replay to live can neither
 * skip nor repeat an event, whatever order commits land in. A client that cannot keep up is closed
 * (4008) rather than buffered without bound; it reconnects with `after_seq` and loses nothing.
 */
export class EventStream {
  private sent: number;
  private pulling = false;
  private again = false;
  private closed = false;

  constructor(private readonly o: StreamOptions) {
    this.sent = o.after;
  }

  get lastSent(): number {
    return this.sent;
  }

  close(): void {
    this.closed = true;
  }

  async pull(): Promise<void> {
    if (this.pulling) {
      this.again = true;
      return;
    }
    this.pulling = true;
    const page = this.o.page ?? 500;
    const max = this.o.maxBuffered ?? DEFAULT_MAX_BUFFERED;
    try {
      do {
        this.again = false;
        for (;;) {
          const batch = await this.o.read(this.sent, page);
          if (this.closed) return;
          for (const e of batch) {
            this.o.socket.send(JSON.stringify({ type: 'event', event: e }));
            this.sent = e.seq;
          }
          if (this.o.socket.bufferedAmount > max) {
            this.closed = true;
            this.o.socket.close(4008, 'too slow: reconnect with after_seq to resume');
            return;
          }
          if (batch.length < page) break;
        }
      } while (this.again && !this.closed);
    } catch (err) {
      this.o.onError?.(err);
      this.closed = true;
      this.o.socket.close(1011, 'event stream failed');
    } finally {
      this.pulling = false;
    }
  }
}
