import type { EventRecord } from '../contract/events.js';
import { EventStream, eventRuns, type StreamSocket } from './event-stream.js';

/** What the hub needs of the event log (runtime/events/event-log.ts). */
export interface EventSource {
  /** The highest seq published to listeners so far. */
  readonly lastSeq: number;
  subscribe(listener: (events: readonly EventRecord[]) => void): () => void;
}

export interface HubOptions {
  source: EventSource;
  /** Reads up to `limit` events after `after`, in seq order: only a stream that is behind calls it. */
  read: (after: number, limit: number) => Promise<EventRecord[]>;
  page?: number;
  maxBuffered?: number;
  /**
   * After a flush, how long events gather before the next one; left out, it follows the number of
   * subscribers (`gatherFor`). An event after a quiet spell goes out on the next turn of the event
   * loop either way.
   */
  gatherMs?: number;
}

/**
 * Writes a second the fan-out may make under load, all subscribers together. Each flush costs a
 * write (a syscall, about 10 µs on loopback) per subscriber whatever it carries, so the wait after
 * a flush grows with the subscribers: a board or two hear of each event within a millisecond or
 * two, 50 subscribers within about 6 ms, and 200 still cost the server no more than 8 000 writes a
 * second (issue 43: a fixed 50 ms kept every subscriber up to 50 ms behind under load).
 */
export const FANOUT_WRITES_PER_SECOND = 8_000;
/** The longest wait, however many subscribers. */
export const MAX_GATHER_MS = 50;

/** How long events gather after a flush to `subscribers` streams. */
export function gatherFor(subscribers: number): number {
  return Math.min(MAX_GATHER_MS, (subscribers * 1000) / FANOUT_WRITES_PER_SECOND);
}

export interface JoinOptions {
  socket: StreamSocket;
  /** The last seq the client has; it is sent every event after it. */
  after: number;
  onError?: (err: unknown) => void;
}

/**
 * The WebSocket fan-out (DESIGN.md: one read per batch of events). Subscribed once to the event
 * log, it frames each committed event once and offers the same bytes to every stream; a live
 * stream writes them as they are, and only a stream that is behind reads the store on its own.
 */
export class EventHub {
  private readonly streams = new Set<EventStream>();
  private readonly unsubscribe: () => void;
  /** Events published and not yet offered, in the order the log's listeners heard of them. */
  private pending: EventRecord[] = [];
  private immediate: NodeJS.Immediate | null = null;
  private gathering: NodeJS.Timeout | null = null;
  /** When the wait after the last flush is over (Date.now()). */
  private due = 0;

  constructor(private readonly o: HubOptions) {
    this.unsubscribe = o.source.subscribe((events) => this.publish(events));
  }

  get size(): number {
    return this.streams.size;
  }

  join(j: JoinOptions): EventStream {
    const stream = new EventStream({
      socket: j.socket,
      after: j.after,
      read: this.o.read,
      ...(this.o.page !== undefined ? { page: this.o.page } : {}),
      ...(this.o.maxBuffered !== undefined ? { maxBuffered: this.o.maxBuffered } : {}),
      ...(j.onError ? { onError: j.onError } : {}),
    });
    this.streams.add(stream);
    // Every event at or below the log's last seq has been published (and is pending here if not
    // yet offered), so a client that has them is live from the start; one that asks for older
    // events replays them from the store first.
    if (j.after < this.o.source.lastSeq) void stream.pull();
    return stream;
  }

  leave(stream: EventStream): void {
    stream.close();
    this.streams.delete(stream);
  }

  /** Stops listening to the log and ends every stream; the sockets are the server's to close. */
  close(): void {
    this.unsubscribe();
    if (this.immediate) clearImmediate(this.immediate);
    if (this.gathering) clearTimeout(this.gathering);
    this.immediate = this.gathering = null;
    this.pending = [];
    for (const s of this.streams) s.close();
    this.streams.clear();
  }

  private publish(events: readonly EventRecord[]): void {
    if (this.streams.size === 0) return;
    this.pending.push(...events);
    // A commit after the wait is over goes out with it, before the requests it answers reply: on a
    // server busy enough that the timer ran late (its phase comes after every request ready to
    // run), subscribers heard of events 20–40 ms after their 201s (issue 43).
    if (this.gathering && Date.now() >= this.due) {
      clearTimeout(this.gathering);
      this.gathering = null;
      this.flush();
      return;
    }
    if (!this.immediate && !this.gathering) this.immediate = setImmediate(() => this.flush());
  }

  private flush(): void {
    this.immediate = null;
    if (this.pending.length === 0 || this.streams.size === 0) {
      this.pending = [];
      return;
    }
    const runs = eventRuns(this.pending);
    this.pending = [];
    for (const s of this.streams) s.offer(runs);
    const gather = this.o.gatherMs ?? gatherFor(this.streams.size);
    if (gather > 0) {
      this.due = Date.now() + gather;
      this.gathering = setTimeout(() => {
        this.gathering = null;
        this.flush();
      }, gather);
    }
  }
}
