import { CompiledQuery, sql, type Transaction } from 'kysely';
import { payloadProblem, type EventKind, type EventPayload } from '../../contract/event-kinds.js';
import type { EventActor, EventRecord } from '../../contract/events.js';
import type { Store } from '../../store/database.js';
import { appendEvent, lastSeq, readEvents, type NewEventOf } from '../../store/events.js';
import type { Database } from '../../store/schema.js';

export interface UnitOfWork {
  db: Transaction<Database>;
  /**
   * Records an event in this transaction; it is published once the transaction commits. Its kind and
   * payload are typed against the catalogue (contract/event-kinds.ts).
   */
  emit<K extends EventKind>(e: NewEventOf<K>): Promise<EventRecord>;
}

type Listener = (events: readonly EventRecord[]) => void;

/** The PostgreSQL channel each commit with events notifies. */
const EVENTS_CHANNEL = 'jig_events';

interface Unit {
  fn: (uow: UnitOfWork) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Done {
  unit: Unit;
  ok: boolean;
  value: unknown;
  events: EventRecord[];
}

/**
 * Under test (NODE_ENV=test: Vitest sets it, and the servers a test spawns inherit it) every payload
 * is checked against its kind's schema and a mismatch fails its unit. Not in production: the check is
 * cheap, but refusing a change whose record is off by a key would stop the engine (ADR 0005).
 */
const checkPayloads = process.env.NODE_ENV === 'test';

/** Units of work that arrive while a commit runs share the next one, at most this many. */
export const MAX_GROUP = 64;

// Standard SQL on both SQLite and PostgreSQL; compiled once.
const SAVEPOINT = CompiledQuery.raw('SAVEPOINT jig_unit');
const RELEASE = CompiledQuery.raw('RELEASE SAVEPOINT jig_unit');
const ROLLBACK_TO = CompiledQuery.raw('ROLLBACK TO SAVEPOINT jig_unit');
const INDEX_SAVEPOINT = CompiledQuery.raw('SAVEPOINT jig_index');
const INDEX_RELEASE = CompiledQuery.raw('RELEASE SAVEPOINT jig_index');
const INDEX_ROLLBACK = CompiledQuery.raw('ROLLBACK TO SAVEPOINT jig_index');

/**
 * Every state change and its events commit together, and listeners (the WebSocket, later the engine
 * and notifications) hear of events only after the commit, so nothing can see an event whose
 * change was rolled back.
 *
 * Group commit: the store has one connection, so transactions run one after another anyway. The
 * units queued in one turn of the event loop (every request whose bytes arrived together) and those
 * queued while a commit runs are run together in the next transaction, each in a savepoint of its
 * own. A commit starts on the next turn (setImmediate) rather than at once: a transaction on
 * better-sqlite3 completes within the turn that starts it, so without the wait no second request
 * could ever join it. A unit that throws is rolled back alone (its events too, so `seq` stays
 * gap-free) and rejects with its error; the others commit together. A commit is most of what
 * filing an item costs (every page it touched is written to the WAL): under ten concurrent
 * writers groups average about six units, and trigger throughput nearly doubled. A unit's promise settles only after the group's commit: a failed
 * commit rejects every unit of the group. A unit must not wait for another `transact` (it would
 * wait for its own group), which a single-connection store forbids anyway.
 */
export class EventLog {
  private readonly listeners = new Set<Listener>();
  private readonly queue: Unit[] = [];
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private closed = false;
  /** Closed and drained: deliveries end. */
  private stopped = false;
  private latest = 0;
  /** PostgreSQL: deliveries one after another, so listeners hear each event once, in seq order. */
  private delivering: Promise<void> = Promise.resolve();
  /** Runs at the end of each unit, in its transaction, over the events it recorded (the search index). */
  private indexer: ((db: Transaction<Database>, events: readonly EventRecord[]) => Promise<void>) | null =
    null;

  constructor(
    private readonly store: Store,
    /** Told when a listener throws: the change is committed either way. */
    private readonly onListenerError: (err: unknown) => void = () => {},
    private readonly strict = checkPayloads,
  ) {}

  async init(): Promise<void> {
    this.latest = await lastSeq(this.store.db);
    // Other processes sharing a PostgreSQL store NOTIFY after each commit: their events reach this
    // process's listeners (the WebSocket, notifications) too, in seq order (docs/scale-out.md).
    if (this.store.kind === 'postgres') await this.store.listen(EVENTS_CHANNEL, () => this.deliver([]));
  }

  /**
   * Tells the listeners of `events` (just committed here) and of every event committed before them
   * that they have not heard yet (another process's), each once and in seq order. On SQLite this
   * process wrote every event, so the events are told at once.
   */
  private deliver(events: readonly EventRecord[]): void {
    if (this.store.kind !== 'postgres') {
      this.tell(events);
      return;
    }
    this.delivering = this.delivering
      .then(async () => {
        // A notification after the stop: the store is closing, and nobody listens any more.
        if (this.stopped) return;
        const upTo = events.length > 0 ? events[events.length - 1]!.seq : Number.POSITIVE_INFINITY;
        // What came in between (or, for a notification, everything new), read from the store.
        for (;;) {
          const before = events[0]?.seq ?? Number.POSITIVE_INFINITY;
          if (this.latest + 1 >= before) break;
          const page = (await readEvents(this.store.db, { after: this.latest, limit: 500 })).filter(
            (e) => e.seq < before,
          );
          if (page.length === 0) break;
          this.tell(page);
          if (page.length < 500) break;
        }
        this.tell(events.filter((e) => e.seq > this.latest && e.seq <= upTo));
      })
      .catch((err: unknown) => this.onListenerError(err));
  }

  /** Hands events past the last told to every listener. */
  private tell(all: readonly EventRecord[]): void {
    const events = all.filter((e) => e.seq > this.latest);
    if (events.length === 0) return;
    this.latest = events[events.length - 1]!.seq;
    for (const l of this.listeners) {
      try {
        l(events);
      } catch (err) {
        // A listener's failure is its own; the change is committed either way.
        this.onListenerError(err);
      }
    }
  }

  /** The highest seq committed so far. */
  get lastSeq(): number {
    return this.latest;
  }

  /**
   * A transaction that records one event and changes nothing else (`by` is `jig` unless told). For a
   * kind computed as one of several, the payload is checked against their union, not against each:
   * `emit` with a whole event per kind is the stricter form.
   */
  record<K extends EventKind>(
    itemId: string,
    type: K,
    payload: EventPayload<K>,
    opts: { by?: EventActor; node?: string | null } = {},
  ): Promise<EventRecord> {
    const e: NewEventOf<K> = {
      work_item_id: itemId,
      type,
      by: opts.by ?? 'jig',
      node: opts.node ?? null,
      payload,
    };
    return this.transact((uow) => uow.emit(e));
  }

  transact<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the event log is closed: the server is stopping'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.drained = new Promise((done) => setImmediate(() => void this.drain().finally(done)));
      }
    });
  }

  /**
   * Refuses new units and waits for those already queued to commit, so the store can close under
   * none of them (the server's stop calls this before closing the store).
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.drained;
    await this.delivering;
    this.stopped = true;
  }

  /**
   * Keeps something in step with the events in the same transaction (the search index): run after
   * each unit's work, before it commits. Its failure is told to `onListenerError` and never undoes
   * the unit: an index a little behind is better than a change refused.
   */
  setIndexer(fn: (db: Transaction<Database>, events: readonly EventRecord[]) => Promise<void>): void {
    this.indexer = fn;
  }

  /** The indexer in a savepoint of its own: a failure halfway takes back its writes, not the unit's. */
  private async index(db: Transaction<Database>, events: readonly EventRecord[]): Promise<void> {
    if (!this.indexer || events.length === 0) return;
    await db.executeQuery(INDEX_SAVEPOINT);
    try {
      await this.indexer(db, events);
      await db.executeQuery(INDEX_RELEASE);
    } catch (err) {
      await db.executeQuery(INDEX_ROLLBACK);
      await db.executeQuery(INDEX_RELEASE);
      this.onListenerError(err);
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_GROUP));
    } finally {
      this.draining = false;
    }
  }

  private async commit(group: Unit[]): Promise<void> {
    let done: Done[];
    try {
      done = await this.store.db.transaction().execute(async (db) => {
        const out: Done[] = [];
        // A lone unit needs no savepoint: its failure rolls the transaction back.
        const alone = group.length === 1;
        for (const unit of group) out.push(await this.run(db, unit, alone));
        if (alone && !out[0]!.ok) throw out[0]!.value;
        // Sent by PostgreSQL at the commit, to every process sharing the store (deliver above).
        const last = out.flatMap((d) => d.events).at(-1);
        if (last && this.store.kind === 'postgres')
          await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${String(last.seq)})`.execute(db);
        return out;
      });
    } catch (err) {
      for (const unit of group) unit.reject(err);
      return;
    }
    const events = done.flatMap((d) => d.events);
    if (events.length > 0) this.deliver(events);
    for (const d of done) {
      if (d.ok) d.unit.resolve(d.value);
      else d.unit.reject(d.value);
    }
  }

  private async run(db: Transaction<Database>, unit: Unit, alone: boolean): Promise<Done> {
    const events: EventRecord[] = [];
    const uow: UnitOfWork = {
      db,
      emit: async (e) => {
        const problem = this.strict ? payloadProblem(e.type, e.payload) : null;
        if (problem) throw new Error(`event ${e.type} does not match the catalogue: ${problem}`);
        const rec = await appendEvent(db, e);
        events.push(rec);
        return rec;
      },
    };
    if (alone) {
      try {
        const value = await unit.fn(uow);
        await this.index(db, events);
        return { unit, ok: true, value, events };
      } catch (err) {
        return { unit, ok: false, value: err, events: [] };
      }
    }
    await db.executeQuery(SAVEPOINT);
    try {
      const value = await unit.fn(uow);
      await this.index(db, events);
      await db.executeQuery(RELEASE);
      return { unit, ok: true, value, events };
    } catch (err) {
      await db.executeQuery(ROLLBACK_TO);
      await db.executeQuery(RELEASE);
      return { unit, ok: false, value: err, events: [] };
    }
  }
}
