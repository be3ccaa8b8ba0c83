import type { ResolvedChain } from './model.js';

/** Where a retry puts the walk: a node, the step of it to start at, and the one task to run there. */
export interface RetryTarget {
  node: number;
  step: number;
  /** With a task path, only that task of the step runs again; the step's other tasks keep their result. */
  task: string | null;
}

export type RetryTargetResult = { ok: true; target: RetryTarget } | { ok: false; reason: string };

/**
 * Resolves `retry`'s optional path (`node`, `node.step` or `node.step.task`, the canonical paths of
 * the chain the item froze) against the node the item stopped on. A retry goes back, never forward
 * (forward is `skip`), and it addresses the node's own steps: a handler's step (`on_failure`,
 * `fix_loop`) runs only as part of that handler, so retrying it alone would leave the handler half
 * done.
 */
export function retryTarget(
  chain: ResolvedChain,
  current: number,
  path?: string,
  /** The last step of the stopped node a retry may start at: the first that did not pass. */
  reached = Number.MAX_SAFE_INTEGER,
): RetryTargetResult {
  if (path === undefined) {
    const here = chain.nodes[current];
    if (!here) return { ok: false, reason: 'the item is past its last node; there is nothing to rerun' };
    if (here.kind !== 'exec')
      return { ok: false, reason: `the item waits at gate ${here.id}: approve or reject it` };
    return { ok: true, target: { node: current, step: 0, task: null } };
  }
  const [nodeId, stepId, taskId, ...rest] = path.split('.');
  const idx = chain.nodes.findIndex((n) => n.id === nodeId);
  const node = chain.nodes[idx];
  if (!node) return { ok: false, reason: `no node ${nodeId ?? ''} in the item's chain` };
  if (idx > current) {
    return {
      ok: false,
      reason: `${nodeId ?? ''} comes after the node the item stopped on; a retry goes back (use skip to go forward)`,
    };
  }
  if (node.kind !== 'exec') return { ok: false, reason: `${node.id} is a gate; a retry reruns an exec node` };
  if (stepId === undefined) return { ok: true, target: { node: idx, step: 0, task: null } };
  const stepIdx = node.steps.findIndex((s) => s.id === stepId);
  const step = node.steps[stepIdx];
  if (!step) {
    return {
      ok: false,
      reason: `no step ${stepId} among ${node.id}'s own steps (${node.steps.map((s) => s.id).join(', ')})`,
    };
  }
  if (idx === current && stepIdx > reached) {
    return {
      ok: false,
      reason: `${step.path} comes after ${node.steps[reached]?.path ?? 'the step that did not pass'}, which did not pass; a retry goes back (use skip to go forward)`,
    };
  }
  if (taskId === undefined) return { ok: true, target: { node: idx, step: stepIdx, task: null } };
  const task = rest.length === 0 ? step.tasks.find((t) => t.id === taskId) : undefined;
  if (!task) return { ok: false, reason: `no task ${path.split('.').slice(2).join('.')} in ${step.path}` };
  return { ok: true, target: { node: idx, step: stepIdx, task: task.path } };
}
