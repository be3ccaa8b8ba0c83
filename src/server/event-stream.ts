import type { EventRecord } from '../contract/events.js';
import { textFrames } from './ws-frame.js';

/** The part of a WebSocket the stream uses; a test can stand in for it. */
export interface StreamSocket {
  /** Writes whole WebSocket frames (see ws-frame.ts), as they are, after what was sent before. */
  write(frames: Buffer): void;
  close(code: number, reason: string): void;
  readonly bufferedAmount: number;
}

/** The text of an event's message: `{"type":"event","event":{…}}`. */
export function eventMessage(event: EventRecord): string {
  return JSON.stringify({ type: 'event', event });
}

/** Events of consecutive seqs, `first` to `last`, framed once: what every live stream is sent. */
export interface EventRun {
  first: number;
  last: number;
  bytes: Buffer;
  /** `offsets[i]` is where the frame of seq `first + i` starts in `bytes`. */
  offsets: readonly number[];
}

/** Frames events once, sorted by seq and cut into runs of consecutive seqs. */
export function eventRuns(events: readonly EventRecord[]): EventRun[] {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  const runs: EventRun[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i]!.seq === sorted[i - 1]!.seq + 1) continue;
    const part = sorted.slice(start, i);
    if (part.length > 0)
      runs.push({
        first: part[0]!.seq,
        last: part[part.length - 1]!.seq,
        ...textFrames(part.map(eventMessage)),
      });
    start = i;
  }
  return runs;
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
export const TOO_SLOW = 'too slow: reconnect with after_seq to resume';

/**
 * One client's stream of the event log. A stream is live when it has sent every event before the
 * runs it is offered: it writes their shared bytes and reads nothing. Otherwise (replaying from
 * `after_seq`, or offered a run that does not follow its last seq) it reads the store from its
 * own last seq until it has caught up, holding what it is offered meanwhile, then is live again.
 * Either way nothing at or below the last seq sent is sent again and nothing is sent past a gap,
 * whatever order runs are offered in. A client that cannot keep up is closed (4008) rather than
 * buffered without bound; it reconnects with `after_seq` and loses nothing.
 */
export class EventStream {
  private sent: number;
  private pulling = false;
  /** Runs offered while a pull runs: sent after it when they follow on, else another read. */
  private held: EventRun[] = [];
  private heldEvents = 0;
  private readAgain = false;
  private closed = false;
  private readonly page: number;
  private readonly maxBuffered: number;

  constructor(private readonly o: StreamOptions) {
    this.sent = o.after;
    this.page = o.page ?? 500;
    this.maxBuffered = o.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  }

  get lastSent(): number {
    return this.sent;
  }

  /** True while the stream sends what it is offered as it comes, without reading the store. */
  get live(): boolean {
    return !this.pulling && !this.closed;
  }

  close(): void {
    this.closed = true;
    this.held = [];
  }

  /** Committed events, framed, in seq order. */
  offer(runs: readonly EventRun[]): void {
    if (this.closed) return;
    if (this.pulling) {
      this.hold(runs);
      return;
    }
    if (!this.sendFollowing(runs)) {
      void this.pull();
      return;
    }
    this.cutOffIfSlow();
  }

  /** Reads the store from the last seq sent until nothing more is there, then goes live. */
  async pull(): Promise<void> {
    if (this.pulling || this.closed) return;
    this.pulling = true;
    try {
      for (;;) {
        this.readAgain = false;
        this.held = [];
        this.heldEvents = 0;
        for (;;) {
          const batch = await this.o.read(this.sent, this.page);
          if (this.closed) return;
          if (batch.length > 0) {
            this.o.socket.write(textFrames(batch.map(eventMessage)).bytes);
            this.sent = batch[batch.length - 1]!.seq;
          }
          if (this.cutOffIfSlow()) return;
          if (batch.length < this.page) break;
        }
        // What was offered during the reads was read already, follows on (send it), or follows
        // something not yet offered (read again rather than wait for it).
        if (!this.readAgain && this.sendFollowing(this.held.sort((a, b) => a.first - b.first))) break;
      }
      this.held = [];
      this.cutOffIfSlow();
    } catch (err) {
      this.o.onError?.(err);
      this.close();
      this.o.socket.close(1011, 'event stream failed');
    } finally {
      this.pulling = false;
    }
  }

  private hold(runs: readonly EventRun[]): void {
    if (this.readAgain) return;
    for (const r of runs) this.heldEvents += r.last - r.first + 1;
    // Bounded: past a page it is cheaper to read again than to hold more.
    if (this.heldEvents > this.page) {
      this.held = [];
      this.readAgain = true;
    } else this.held.push(...runs);
  }

  /** Sends what follows the last seq sent; false at a gap (events before a run are missing). */
  private sendFollowing(runs: readonly EventRun[]): boolean {
    for (const r of runs) {
      if (r.last <= this.sent) continue;
      if (r.first > this.sent + 1) return false;
      const from = this.sent + 1 - r.first;
      this.o.socket.write(from === 0 ? r.bytes : r.bytes.subarray(r.offsets[from]));
      this.sent = r.last;
    }
    return true;
  }

  private cutOffIfSlow(): boolean {
    if (this.closed) return true;
    if (this.o.socket.bufferedAmount <= this.maxBuffered) return false;
    this.close();
    this.o.socket.close(4008, TOO_SLOW);
    return true;
  }
}
