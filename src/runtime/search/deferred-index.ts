import type { EventRecord } from '../../contract/events.js';
import type { Store } from '../../store/database.js';
import { readEvents } from '../../store/events.js';
import { indexedSeq, setIndexedSeq } from '../../store/search.js';
import type { EventLog } from '../events/event-log.js';
import type { PollerLog } from '../intake/schedule-poller.js';
import { indexEvents } from './entries.js';

/** How long committed events wait to be indexed together: about 60 under a stream of filings. */
const BATCH_MS = 50;
/** Events read back at a time when a start catches up. */
const CATCH_UP_PAGE = 500;

/**
 * The search index of what the event log records, written after the commit in batches (SQLite;
 * ADR 0029). Indexed in the writer's own transaction, each unit's entries were flushed by FTS5 at
 * its savepoint as a segment of their own: with the index's pages that was over half of what a
 * filing's commit wrote, for a search nobody had asked yet. Taken in here, sixty items share one
 * segment and one commit.
 *
 * What a search reads is never behind it: a search (and health's count) first waits for what is
 * queued. The last seq taken in is kept with the entries, in the same transaction, so a start takes
 * in what a stop or a crash left before it. PostgreSQL, where several processes write, indexes in
 * the writer's transaction still (its index is a generated column, with no segments to flush).
 */
export class DeferredIndex {
  private pending: EventRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Batches are written one after another, in seq order. */
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  /**
   * After a batch failed: the mark stays before it, however many batches succeed after, so the
   * next start takes the failed one in again.
   */
  private held: number | null = null;

  constructor(
    private readonly d: { store: Store; events: EventLog; log: PollerLog },
    private readonly batchMs = BATCH_MS,
  ) {}

  /** Hears every commit from now on, and takes in what was committed after the last batch. */
  start(): void {
    // Subscribed first: an event is either heard here or at or below `upTo`, never neither.
    this.unsubscribe = this.d.events.subscribe((events) => this.add(events));
    const upTo = this.d.events.lastSeq;
    this.chain = this.chain.then(() => this.catchUp(upTo));
  }

  private async catchUp(upTo: number): Promise<void> {
    const db = this.d.store.db;
    let after = 0;
    try {
      const mark = await indexedSeq(db);
      // A store without the mark (copied in from elsewhere) was indexed as it was written.
      if (mark === null) return await this.write([], upTo);
      after = mark;
      while (after < upTo) {
        const page: EventRecord[] = (await readEvents(db, { after, limit: CATCH_UP_PAGE })).filter(
          (e) => e.seq <= upTo,
        );
        const last = page.at(-1);
        if (!last) break;
        await this.write(page, last.seq);
        after = last.seq;
      }
    } catch (err) {
      this.failed(err, after);
    }
  }

  private add(events: readonly EventRecord[]): void {
    this.pending.push(...events);
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.batchMs);
      this.timer.unref();
    }
  }

  /** Writes what is queued now (and waits for the batches before it). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    const [first, last] = [batch[0], batch.at(-1)];
    if (first && last) {
      this.chain = this.chain
        .then(() => this.write(batch, last.seq))
        .catch((err: unknown) => this.failed(err, first.seq - 1));
    }
    return this.chain;
  }

  /**
   * The entries and the mark in one transaction of their own: they commit together or not at all.
   * Not a unit of the event log's group commit: a unit that shares a commit runs in a savepoint,
   * and under an open savepoint FTS5 writes each statement's terms out at once, twice the cost of
   * an entry (25 µs an entry in a transaction, 55 µs under a savepoint).
   */
  private async write(events: readonly EventRecord[], seq: number): Promise<void> {
    await this.d.store.db.transaction().execute(async (tx) => {
      await indexEvents(tx, events);
      await setIndexedSeq(tx, this.held ?? seq);
    });
  }

  /* An index a little behind is better than a change refused: the next start takes it in again. */
  private failed(err: unknown, before: number): void {
    this.held ??= before;
    this.d.log.warn({ err, after_seq: before }, 'indexing events for search failed');
  }

  /** Hears no more, and writes what was heard. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.flush();
  }
}
