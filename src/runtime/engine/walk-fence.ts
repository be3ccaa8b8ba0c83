import type { Transaction } from 'kysely';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import { getItem, runStateOf, type ItemRecord } from '../../store/work-items.js';
import type { EventLog, UnitOfWork } from '../events/event-log.js';
import type { Claims } from './claims.js';
import type { EngineLife } from './engine-life.js';

/**
 * Whether the walk going on in this process may still write an item. Two things overtake a walk:
 * another process taking the item over (its claim moved on: claims.ts), and a person's move that
 * set the item running anew without waiting for the older walk to end (its run epoch moved on:
 * slots.ts). Every write of the walk goes through `write` (or `heldIn` inside a transaction of its
 * own), which reads the row once inside the writer's transaction, so a move committed just before
 * is never written over, and a walk that was overtaken ends without a trace.
 */
export class WalkFence {
  /** The run epoch each walk going on here started in (an item's walks run one at a time). */
  private readonly epochs = new Map<string, number>();

  constructor(
    private readonly d: { store: Store; claims: Pick<Claims, 'heldIn' | 'holds'>; life: EngineLife },
  ) {}

  /** Runs one walk of the item under the epoch it starts in. */
  async within<T>(rec: ItemRecord, walk: () => Promise<T>): Promise<T> {
    this.epochs.set(rec.id, rec.run_epoch);
    try {
      return await walk();
    } finally {
      this.epochs.delete(rec.id);
    }
  }

  /** The row, read inside the writer's transaction, when this walk may still write it; else null. */
  async mine(db: Transaction<Database>, id: string): Promise<ItemRecord | null> {
    if (!(await this.d.claims.heldIn(db, id))) return null;
    const cur = await getItem(db, id);
    return cur && this.inEpoch(id, cur.run_epoch) ? cur : null;
  }

  /** `mine`, as a yes or no (the node runner's steps check it before they change the walk). */
  async heldIn(db: Transaction<Database>, id: string): Promise<boolean> {
    if (!(await this.d.claims.heldIn(db, id))) return false;
    const cur = await runStateOf(db, id);
    return cur !== null && this.inEpoch(id, cur.run_epoch);
  }

  private inEpoch(id: string, runEpoch: number): boolean {
    const epoch = this.epochs.get(id);
    return epoch === undefined || runEpoch === epoch;
  }

  /**
   * One write of the walk: in one transaction, the item read once and handed to `fn` when this walk
   * may still write it (and, with `running`, it still runs: a move that ended or paused it keeps
   * its own ending). Answers `fn`'s value, or `fenced` when the walk was overtaken.
   */
  async write<T>(
    events: EventLog,
    id: string,
    fn: (uow: UnitOfWork, cur: ItemRecord) => Promise<T>,
    opts: { running?: boolean } = {},
  ): Promise<{ done: T } | 'fenced'> {
    return events.transact(async (uow) => {
      const cur = await this.mine(uow.db, id);
      if (cur === null || (opts.running === true && cur.status !== 'running')) return 'fenced';
      return { done: await fn(uow, cur) };
    });
  }

  /** The item still runs under this walk's epoch (and this process walks it): the walk may go on. */
  async stillRunning(id: string): Promise<boolean> {
    if (this.d.life.closed) return false;
    const cur = await runStateOf(this.d.store.db, id);
    if (cur?.status !== 'running') return false;
    return this.inEpoch(id, cur.run_epoch) && this.d.claims.holds(id);
  }
}
