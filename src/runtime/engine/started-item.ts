import type { ResolvedChain } from '../../contract/config/chain-model.js';
import type { Walk } from '../../contract/walk.js';
import type { ItemRecord } from '../../store/work-items.js';

/** An item that has started: its chain is frozen and it has a walk. */
export type StartedItem = ItemRecord & { walk: Walk; chain_definition: ResolvedChain };

/**
 * The item as one that has started, for the code that runs only inside a walk. An item whose
 * saved state cannot be read never gets there (the walker stops it first), so a miss here is a
 * defect, reported with the item and why.
 */
export function asStarted(rec: ItemRecord): StartedItem {
  const { walk, chain_definition: chain } = rec;
  if (walk === null || chain === null) {
    const why = rec.state_error ?? (walk === null ? 'it has no walk' : 'it has no frozen chain');
    throw new Error(`work item ${rec.id} is walked but has not started: ${why}`);
  }
  return { ...rec, walk, chain_definition: chain };
}
