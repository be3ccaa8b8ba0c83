import type { Walk } from '../../contract/walk.js';
import { JigError } from '../../contract/errors.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import type { ItemRecord } from '../../store/work-items.js';
import { atNode } from '../../core/chain/walk-state.js';
import { pauseFirst, wrongStatus } from './move-guards.js';

/**
 * What a person's `skip --path` asks, once checked against the item's chain and walk:
 * `current`, the node the item is at (today's skip); `ahead`, a node still to come, added to the
 * nodes the item passes (`skip_nodes`); `inside`, steps or tasks of the current node not run yet,
 * which its walk then passes (`walk.skipped`).
 */
export type SkipPlan =
  | { kind: 'current' }
  | { kind: 'ahead'; node: string; skipNodes: string[] }
  | { kind: 'inside'; node: string; path: string; walk: Walk };

const bad = (why: string): JigError =>
  new JigError(
    'validation_failed',
    { reason: `body.path: ${why}` },
    { issues: [{ field: 'body.path', message: why }] },
  );

/** The first step of the current node that may still be passed: it has not run in this entry. */
function firstOpenStep(w: Walk): number {
  return typeof w.failed_step === 'number' ? w.failed_step : w.step;
}

/**
 * Checks a skip with a path and plans it, throwing what the route answers: 422 for a path the chain
 * does not have or the walk has passed, 409 for a node that may not be skipped or an item that
 * cannot take it now. `chain` is the frozen chain, or the one the item will freeze.
 */
export function planSkip(rec: ItemRecord, chain: ResolvedChain, path: string): SkipPlan {
  const [nodeId, stepId, taskId] = path.split('.');
  const index = chain.nodes.findIndex((n) => n.id === nodeId);
  const node = chain.nodes[index];
  if (!node)
    throw bad(
      `no node ${nodeId ?? ''} in the item's chain (its nodes: ${chain.nodes.map((n) => n.id).join(', ')})`,
    );
  if (node.skippable === false)
    throw new JigError('node_not_skippable', { node: node.id }, { status: rec.status, node: node.id });
  const w = rec.walk;
  const at = w?.node ?? -1;
  if (w && index < at) throw bad(`the item has already passed ${node.id}`);
  if (index > at) {
    if (stepId !== undefined)
      throw bad(`${node.id} has not started: pass the whole node, or a step of the node the item is at`);
    if (rec.skip_nodes.includes(node.id)) return { kind: 'ahead', node: node.id, skipNodes: rec.skip_nodes };
    return { kind: 'ahead', node: node.id, skipNodes: [...rec.skip_nodes, node.id] };
  }
  if (stepId === undefined) return { kind: 'current' };
  if (!w || (rec.status !== 'paused' && rec.status !== 'stopped'))
    throw wrongStatus(rec, `a step or task is passed on a paused or stopped item${pauseFirst(rec)}`, [
      'paused',
      'stopped',
    ]);
  if (node.kind !== 'exec') throw bad(`${node.id} is a gate: it has no steps`);
  const s = node.steps.findIndex((x) => x.id === stepId);
  const step = node.steps[s];
  if (!step)
    throw bad(`${node.id} has no step ${stepId} (its steps: ${node.steps.map((x) => x.id).join(', ')})`);
  if (taskId !== undefined && !step.tasks.some((t) => t.id === taskId))
    throw bad(`${step.path} has no task ${taskId} (its tasks: ${step.tasks.map((t) => t.id).join(', ')})`);
  const paused = rec.status === 'paused';
  if (paused && w.phase !== 'node')
    throw bad(`${node.id} is past its own steps (${w.phase}): its steps run again only on a retry`);
  const open = firstOpenStep(w);
  if (s < open) throw bad(`${step.path} has already run in this entry of ${node.id}`);
  const skipped = [...new Set([...(w.skipped ?? []), path])];
  // A paused item takes the mark where it is; a stopped one goes on from the step it stopped at,
  // a fresh entry of the node as a retry makes, with the marked steps and tasks passed.
  const walk: Walk = paused ? { ...w, skipped } : { ...atNode(w, index), step: open, skipped };
  return { kind: 'inside', node: node.id, path, walk };
}
