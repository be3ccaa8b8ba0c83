import { JigError } from '../../contract/errors.js';
import { itemStatuses, type ItemStatus } from '../../contract/item-status.js';
import { isEnded } from '../../core/items/status.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';

/**
 * A person's move is decided on the item as read before its transaction (in the item's queue, so
 * the walk cannot interleave); a move outside that queue (cancel, abandon, pause, a wall clock) may
 * have changed the item since. Checked inside the transaction, so the later move is refused as it
 * would be run after the other.
 */
export async function unchanged(uow: UnitOfWork, rec: ItemRecord): Promise<void> {
  const cur = await getItem(uow.db, rec.id);
  if (!cur) throw new JigError('item_not_found', { id: rec.id });
  if (
    cur.status !== rec.status ||
    cur.stop_kind !== rec.stop_kind ||
    (cur.archived_at === null) !== (rec.archived_at === null)
  ) {
    throw new JigError('item_changed', { state: cur.status }, { status: cur.status });
  }
}

/** The item as its move's transaction reads it, or the catalogue's 404. */
export async function rowOf(uow: UnitOfWork, id: string): Promise<ItemRecord> {
  const rec = await getItem(uow.db, id);
  if (!rec) throw new JigError('item_not_found', { id });
  return rec;
}

/**
 * What a refusal adds for an item that is running, queued, waiting or blocked: the move needs it stopped
 * or paused, and a pause is the way there (docs/chains.md, "Moves while an item runs").
 */
export function pauseFirst(rec: ItemRecord): string {
  return ['running', 'queued', 'waiting', 'blocked'].includes(rec.status) ? `: pause it first` : '';
}

const notEnded: ItemStatus[] = itemStatuses.filter((s) => !isEnded(s));

/** The move needs the item in one of `allowed`; `rule` says so in words. */
export function wrongStatus(rec: ItemRecord, rule: string, allowed: readonly ItemStatus[]): JigError {
  return new JigError(
    'item_wrong_status',
    { state: rec.status, rule },
    { status: rec.status, allowed: [...allowed] },
  );
}

/** Moves that only make sense for an item that has not ended. */
export function refuseEnded(rec: ItemRecord): void {
  if (rec.status === 'completed' || rec.status === 'cancelled' || rec.status === 'abandoned') {
    throw wrongStatus(rec, 'it has ended', notEnded);
  }
}

/**
 * The item waits on this gate: stopped at it for a person, or stopped there by a wall clock (a gate
 * that timed out, or a total cap reached while it waited), since then the gate stays open.
 */
export function gateOpen(rec: ItemRecord, gate: string): boolean {
  const chain = rec.chain_definition;
  const node = chain && rec.walk ? chain.nodes[rec.walk.node] : undefined;
  return (
    rec.status === 'stopped' &&
    rec.current_node === gate &&
    node?.kind === 'gate' &&
    node.id === gate &&
    (rec.stop_kind === 'gate' || rec.stop_kind === 'cap')
  );
}

/**
 * What a refused gate move adds about the gate that does wait, so a misspelt or stale gate name
 * is answered with the one to use: "; the item waits at gate review", or "" when none waits.
 */
export function pendingGateNote(rec: ItemRecord): string {
  const g = rec.current_node;
  return g !== null && gateOpen(rec, g) ? `; the item waits at gate ${g}` : '';
}
