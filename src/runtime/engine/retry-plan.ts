import type { Walk } from '../../contract/walk.js';
import { JigError } from '../../contract/errors.js';
import type { EventPayload } from '../../contract/event-kinds.js';
import type { ModelExecNode, ResolvedChain } from '../../core/chain/model.js';
import { retryTarget } from '../../core/chain/retry-target.js';
import { isModelId } from '../../core/items/overrides.js';
import type { ItemRecord } from '../../store/work-items.js';
import { atNode } from '../../core/chain/walk-state.js';

export interface RetryOptions {
  path?: string;
  steer?: string;
  task_config?: { model?: string; effort?: string };
}

/** What a retry writes: the walk at the point retried from, and what the events say of it. */
export interface RetryPlan {
  walk: Walk;
  node: string | null;
  /** The item's node overrides with `task_config` applied, or null when it sets none. */
  nodeOverrides: Record<string, unknown> | null;
  payload: EventPayload<'work_item_retried'>;
}

/**
 * The first step of the stopped node that did not pass in this entry: a retry of the node's steps
 * may start there or before, never after (that would skip a failing step).
 */
function reachedStep(chain: ResolvedChain, w: Walk): number {
  const node = chain.nodes[w.node];
  if (node?.kind !== 'exec') return 0;
  if (typeof w.failed_step === 'number') return w.failed_step;
  // Stopped inside the node's own steps (a cap, a question): the step it was on.
  if ((w.phase ?? 'node') === 'node' && w.step < node.steps.length) return w.step;
  return node.steps.length - 1;
}

/**
 * Checks a person's retry of a stopped item and plans it, throwing the error the route answers:
 * 409 for an item that cannot be retried, 422 for a path or model that is wrong. A retry is a fresh
 * entry: recovery, fix-loop counters, escalation and the node's clock reset; gates after the point
 * retried from are decided again, and `on_base_changed` restarts from there count afresh.
 */
export function planRetry(rec: ItemRecord, opts: RetryOptions): RetryPlan {
  const refuse = (reason: string) => new JigError('move_refused', { reason }, { status: rec.status });
  if (rec.status !== 'stopped' || !rec.walk)
    throw refuse(`the item is ${rec.status}; only a stopped item can be retried`);
  if (rec.stop_kind === 'gate')
    throw refuse(`the item waits at gate ${rec.current_node ?? ''}: approve or reject it`);
  const chain = rec.chain_definition as ResolvedChain;
  const found = retryTarget(chain, rec.walk.node, opts.path, reachedStep(chain, rec.walk));
  if (!found.ok && opts.path === undefined) throw refuse(found.reason);
  if (!found.ok) throw new JigError('validation_failed', { reason: `path: ${found.reason}` });
  const t = found.target;
  const back = chain.nodes[t.node]?.id ?? null;
  const tc = opts.task_config;
  if (tc?.model !== undefined && !isModelId(tc.model))
    throw new JigError('invalid_model_override', {
      field: 'task_config.model',
      value: JSON.stringify(tc.model),
    });
  // The model and effort asked for apply to the agent tasks of the node retried, from now on (a
  // node override, as PATCH would set it), so a later rerun of the node keeps the choice.
  const nodeOverrides =
    tc && back && (tc.model !== undefined || tc.effort !== undefined)
      ? {
          ...rec.node_overrides,
          [back]: { ...(rec.node_overrides[back] as Record<string, unknown> | undefined), ...tc },
        }
      : null;
  const later = new Set(chain.nodes.slice(t.node).map((n) => n.id));
  const walk: Walk = {
    ...atNode(rec.walk, t.node),
    step: t.step,
    approved: rec.walk.approved.filter((g) => !later.has(g)),
    base_restarts: Object.fromEntries(
      Object.entries(rec.walk.base_restarts ?? {}).filter(([n]) => !later.has(n)),
    ),
    ...(t.task ? { only_task: t.task } : {}),
  };
  return {
    walk,
    node: back,
    nodeOverrides,
    payload: {
      node: back,
      from: rec.current_node,
      step: (chain.nodes[t.node] as ModelExecNode | undefined)?.steps?.[t.step]?.path ?? null,
      task: t.task,
      ...(opts.steer ? { steer: opts.steer } : {}),
    },
  };
}
