import { stamp } from '../clock.js';
import type { EventActor } from '../../contract/events.js';
import { firstWalk, release } from '../../core/chain/walk-state.js';
import { oldestQueued, runningCount } from '../../store/slots.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import { unchanged } from './move-guards.js';
import type { EngineResources } from './resources.js';
import type { WalkRequests } from './walk-requests.js';

/**
 * Who runs: the one place that hands out run slots (a claim when an item asks to run, a promotion
 * when a slot frees). When workers on several machines share a store, the claim of queued rows is
 * where `FOR UPDATE SKIP LOCKED` goes (store/slots.ts).
 */
export class Slots {
  constructor(
    private readonly r: EngineResources,
    private readonly walks: WalkRequests,
  ) {}

  private maxConcurrent(): number {
    return this.r.config.policy?.max_concurrent ?? 3;
  }

  /** Moves an item to running if a slot is free, else queues it; answers the status set. */
  async claim(uow: UnitOfWork, rec: ItemRecord, by: EventActor): Promise<'running' | 'queued'> {
    await unchanged(uow, rec);
    const free = (await runningCount(uow.db, rec.id)) < this.maxConcurrent();
    const status = free ? 'running' : 'queued';
    const cur = await getItem(uow.db, rec.id);
    const w = cur?.walk ?? null;
    // The first start freezes the chain and starts the item's clock, queued or not: a wait for a
    // slot is a wait like any other. A walk that cannot be read is not a first start: it is never
    // frozen over, and the walker stops the item saying why.
    const frozen = w === null && !cur?.state_error ? this.freeze(cur ?? rec) : null;
    const now = stamp(this.r.clock);
    await updateItem(uow.db, rec.id, {
      ...(w?.paused_at ? { walk: release(w, this.r.clock.now()) } : {}),
      ...(frozen ?? {}),
      status,
      // A new walk's epoch: one still going from before (a pause and this move while its node ran)
      // finds it moved on and writes nothing more. The gate request, if any, is answered.
      ...(free ? { run_epoch: (cur?.run_epoch ?? rec.run_epoch) + 1 } : {}),
      gate_request: null,
      queued_at: free ? null : now,
      started_at: rec.started_at ?? (free ? now : null),
      stop_kind: null,
      stop_reason: null,
      suggested_action: null,
      updated_at: now,
    });
    if (!free) {
      await uow.emit({
        work_item_id: rec.id,
        type: 'work_item_queued',
        by,
        payload: { max_concurrent: this.maxConcurrent() },
      });
    }
    return status;
  }

  /** The chain and policy an item keeps from its first start on, and its walk at the first node. */
  freeze(rec: ItemRecord): Pick<ItemRecord, 'chain_definition' | 'policy_snapshot' | 'walk'> | null {
    const chain = this.r.config.runningChains.get(rec.chain)?.resolved;
    if (!chain) return null;
    return {
      chain_definition: chain,
      policy_snapshot: this.r.config.policy,
      walk: rec.walk ?? firstWalk(this.r.clock.now()),
    };
  }

  /** Starts queued items in the background; a failure is logged (at shutdown the store is gone). */
  promote(): void {
    this.promoteNow().catch((err: unknown) => {
      if (!this.r.life.closed) this.r.log.error({ err }, 'starting queued items failed');
    });
  }

  /** Starts queued items, the longest waiting first, while slots are free. */
  private async promoteNow(): Promise<void> {
    const started = await this.r.events.transact(async (uow) => {
      const free = this.maxConcurrent() - (await runningCount(uow.db));
      if (free <= 0) return [];
      const queued = await oldestQueued(uow.db, free);
      const now = stamp(this.r.clock);
      for (const q of queued) {
        await updateItem(uow.db, q.id, {
          status: 'running',
          run_epoch: Number(q.run_epoch) + 1,
          queued_at: null,
          started_at: q.started_at ?? now,
          updated_at: now,
        });
        await uow.emit({ work_item_id: q.id, type: 'work_item_dequeued', by: 'jig', payload: {} });
      }
      return queued.map((q) => q.id);
    });
    for (const id of started) this.walks.walk(id);
  }
}
