import type { Transaction } from 'kysely';
import type { EventRecord } from '../../contract/events.js';
import type { Store } from '../../store/database.js';
import { appendEvent, lastSeq, type NewEvent } from '../../store/events.js';
import type { Database } from '../../store/schema.js';

export interface UnitOfWork {
  db: Transaction<Database>;
  /** Records an event in this transaction; it is published once the transaction commits. */
  emit(e: NewEvent): Promise<EventRecord>;
}

type Listener = (events: readonly EventRecord[]) => void;

/**
 * Every state change and its events commit together, and listeners (the WebSocket, later the engine
 * and notifications) hear of events only after the commit, so nothing can see an event whose
 * change was rolled back.
 */
export class EventLog {
  private readonly listeners = new Set<Listener>();
  private latest = 0;

  constructor(private readonly store: Store) {}

  async init(): Promise<void> {
    this.latest = await lastSeq(this.store.db);
  }

  /** The highest seq committed so far. */
  get lastSeq(): number {
    return this.latest;
  }

  async transact<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    const pending: EventRecord[] = [];
    const result = await this.store.db.transaction().execute(async (db) =>
      fn({
        db,
        emit: async (e) => {
          const rec = await appendEvent(db, e);
          pending.push(rec);
          return rec;
        },
      }),
    );
    if (pending.length > 0) {
      this.latest = Math.max(this.latest, pending[pending.length - 1]!.seq);
      for (const l of this.listeners) {
        try {
          l(pending);
        } catch {
          // A listener's failure is its own; the change is committed either way.
        }
      }
    }
    return result;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
