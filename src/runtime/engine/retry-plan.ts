import type { Walk } from '../../contract/walk.js';
import { JigError } from '../../contract/errors.js';
import type { EventPayload } from '../../contract/event-kinds.js';
import type { ModelNode, ResolvedChain } from '../../core/chain/model.js';
import { wrongStatus } from './move-guards.js';
import { retryTarget } from '../../core/chain/retry-target.js';
import { isModelId } from '../../core/items/overrides.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { SessionRecord } from '../../store/sessions.js';
import { ESCALATION_NODE } from '../../contract/verdicts.js';
import { atNode } from '../../core/chain/walk-state.js';

export interface RetryOptions {
  path?: string;
  steer?: string;
  /** A fresh agent session: the retried task does not go on in the CLI session it stopped in. */
  restart?: boolean;
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

/** The path of step `i` of an exec node (null for a gate or past its steps). */
function stepPath(node: ModelNode | undefined, i: number): string | null {
  return node?.kind === 'exec' ? (node.steps[i]?.path ?? null) : null;
}

/**
 * The session a retry goes on in: the item's last agent session, when it ran a task of the step
 * retried from (the task asked for, if one was) and its CLI told its session id. A session of an
 * earlier point, a recovery plan or an escalation turn is not continued: the rerun starts before it.
 */
function continuedSession(
  sessions: readonly SessionRecord[],
  step: string | null,
  task: string | null,
): SessionRecord | null {
  const last = sessions.filter((s) => s.kind === 'agent' && s.node !== ESCALATION_NODE).at(-1);
  if (!last?.cli_session_id || step === null) return null;
  if (task !== null ? last.task_path !== task : !last.task_path.startsWith(`${step}.`)) return null;
  return last;
}

/** The object stored under `key` (a node's overrides), or nothing when there is none. */
function objectAt(overrides: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = overrides[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v } : {};
}

/**
 * Checks a person's retry of a stopped item and plans it, throwing the error the route answers:
 * 409 for an item that cannot be retried, 422 for a path or model that is wrong. A retry is a fresh
 * entry: recovery, fix-loop counters, escalation and the node's clock reset; gates after the point
 * retried from are decided again, and `on_base_changed` restarts from there count afresh.
 */
export function planRetry(
  rec: ItemRecord,
  opts: RetryOptions,
  sessions: readonly SessionRecord[] = [],
): RetryPlan {
  const { walk: was, chain_definition: chain } = rec;
  if (rec.status !== 'stopped' || !was || !chain)
    throw wrongStatus(rec, 'only a stopped item can be retried', ['stopped']);
  const here = chain.nodes[was.node];
  // At a gate (waiting, or stopped there by a wall clock) a retry with no path has nothing to rerun.
  if (rec.stop_kind === 'gate' || (here?.kind === 'gate' && opts.path === undefined)) {
    const gate = rec.stop_kind === 'gate' ? (rec.current_node ?? '') : (here?.id ?? '');
    throw new JigError('item_at_gate', { gate }, { status: rec.status, gate });
  }
  const found = retryTarget(chain, was.node, opts.path, reachedStep(chain, was));
  if (!found.ok && opts.path === undefined)
    throw new JigError('nothing_to_retry', { reason: found.reason }, { status: rec.status });
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
          [back]: { ...objectAt(rec.node_overrides, back), ...tc },
        }
      : null;
  const later = new Set(chain.nodes.slice(t.node).map((n) => n.id));
  const step = stepPath(chain.nodes[t.node], t.step);
  const goesOn = opts.restart ? null : continuedSession(sessions, step, t.task);
  const walk: Walk = {
    ...atNode(was, t.node),
    step: t.step,
    approved: was.approved.filter((g) => !later.has(g)),
    base_restarts: Object.fromEntries(Object.entries(was.base_restarts ?? {}).filter(([n]) => !later.has(n))),
    ...(t.task ? { only_task: t.task } : {}),
    ...(goesOn ? { resume_session: goesOn.id } : {}),
    // Steps and tasks a person marked to pass in this node stay passed when it is rerun.
    ...(t.node === was.node && was.skipped?.length ? { skipped: was.skipped } : {}),
  };
  return {
    walk,
    node: back,
    nodeOverrides,
    payload: {
      node: back,
      from: rec.current_node,
      step,
      task: t.task,
      ...(opts.steer ? { steer: opts.steer } : {}),
      ...(opts.restart ? { restart: true } : {}),
      ...(goesOn ? { resumes: goesOn.id } : {}),
    },
  };
}
