import type { StopKind } from '../../contract/item-status.js';
import type { Walk } from '../../contract/walk.js';
import { updateItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import { stoppedWalk } from '../../core/chain/walk-rules.js';

/**
 * Stops an item for a person from outside its walk (a wait, the merge request watcher), inside the
 * caller's transaction: the stop with its kind and reason, the walk's clocks held as the kind says,
 * and `work_item_needs_human`. The caller has decided on the row it read in that transaction.
 */
export async function recordStop(
  uow: UnitOfWork,
  cur: ItemRecord,
  stop: { kind: StopKind; reason: string; walk: Walk | null; session?: string },
  at: { ms: number; iso: string },
): Promise<void> {
  const { kind, reason, walk, session } = stop;
  await updateItem(uow.db, cur.id, {
    status: 'stopped',
    stop_kind: kind,
    stop_reason: reason,
    queued_at: null,
    ...(walk ? { walk: stoppedWalk(walk, kind, at.ms) } : {}),
    updated_at: at.iso,
  });
  await uow.emit({
    work_item_id: cur.id,
    type: 'work_item_needs_human',
    by: 'jig',
    node: cur.current_node,
    payload: { kind, reason, ...(session ? { session } : {}) },
  });
}
