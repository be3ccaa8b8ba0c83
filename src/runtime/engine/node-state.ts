import type { Walk } from '../../contract/walk.js';
import { getItem, updateItem } from '../../store/work-items.js';

/** Everything the walk keeps about failure handling inside one node (reference §2.7). */
const NODE_LOCAL = [
  'phase',
  'step_at',
  'entry',
  'recovery',
  'cycles',
  'loop_started_at',
  'rounds',
  'measured',
  'concerns',
  'escalated',
  'stuck_reason',
  'read_only_before',
  'parked_until',
  'rate_limit_retries',
  'only_task',
  'base_checked',
  'conflict',
  'node_clock',
  'step_clock',
  'gate_clock',
  'failed_step',
] as const satisfies readonly (keyof Walk)[];

/** The walk positioned at the start of node `index`, with no failure-handling state carried over. */
export function atNode(walk: Walk, index: number): Walk {
  const out: Walk = { ...walk, node: index, step: 0 };
  for (const k of NODE_LOCAL) delete out[k];
  return out;
}

/** A fresh entry into the same node (after an escalation that succeeded): counters reset. */
export function freshEntry(walk: Walk): Walk {
  return {
    ...walk,
    phase: 'node',
    step: 0,
    step_at: null,
    entry: (walk.entry ?? 1) + 1,
    recovery: null,
    cycles: 0,
    loop_started_at: null,
    rounds: [],
    measured: [],
    concerns: null,
    stuck_reason: null,
    read_only_before: null,
    failed_step: null,
    // A fresh entry looks at the base again; the node's wall clock keeps running (it bounds the
    // node, escalations included).
    base_checked: false,
  };
}

/** The node's own steps again from the first, as a new measurement. */
export function remeasure(walk: Walk): Walk {
  return { ...walk, phase: 'node', step: 0, step_at: null, measured: [], concerns: null, failed_step: null };
}

type Db = Parameters<typeof getItem>[0];

/** Reads the walk, changes it, writes it back (inside the caller's transaction when given one). */
export async function patchWalk(db: Db, id: string, fn: (w: Walk) => Walk): Promise<Walk> {
  // Read and write in one transaction, so a move made meanwhile (a pause's hold, a park) is not
  // overwritten by a walk read before it.
  if (!db.isTransaction) return db.transaction().execute((trx) => patchWalk(trx, id, fn));
  const rec = await getItem(db, id);
  const next = fn(rec!.walk!);
  await updateItem(db, id, { walk: next, updated_at: new Date().toISOString() });
  return next;
}
