import type { PolicyFile } from '../../contract/config/policy.js';
import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { StopKind } from '../../contract/item-status.js';
import type { SessionStatus } from '../../contract/session-status.js';
import type { Walk } from '../../contract/walk.js';
import { overrideAt } from '../items/policy-override.js';
import type { ModelExecNode, ModelStep, ModelTask, ResolvedChain } from './model.js';
import { clockAt, hold } from './walk-state.js';

/*
 * The walk's pure rules: which time cap a task runs under, where a rejection goes back to, which
 * failure of a step a person acts on first, which stop a session's end leads to, and the walk as
 * an item stops. No I/O: the engine (runtime/engine) applies them.
 */

/**
 * The walk as an item stops: a gate starts its clock; a stop for a person holds the wall clocks,
 * like a pause (a rate-limit park is a wait and keeps them running).
 */
export function stoppedWalk(w: Walk, kind: StopKind, at: number): Walk {
  if (kind === 'gate') return w.gate_clock ? w : { ...w, gate_clock: clockAt(w, at) };
  return kind === 'rate_limit' ? w : hold(w, at);
}

/** The time cap a task runs under: the nearest scope that sets one, else policy.yaml's task default. */
export function timeCapMinutes(
  chain: ResolvedChain,
  node: ModelExecNode,
  step: ModelStep,
  task: ModelTask,
  policy: PolicyFile | null,
  override?: unknown,
): number | null {
  for (const p of [task.path, step.path, node.id]) {
    const o = overrideAt(override, p).time_cap_minutes;
    if (o !== undefined) return o;
  }
  const own = (x: { policy?: ScopePolicy | undefined }): number | undefined => x.policy?.time_cap_minutes;
  const defaults = policy?.defaults?.tasks;
  return own(task) ?? own(step) ?? own(node) ?? own(chain) ?? defaults?.time_cap_minutes ?? null;
}

/** The exec node a rejection re-enters: `reject_to`, else the nearest exec node before the gate. */
export function rejectTarget(chain: ResolvedChain, gateIndex: number, override?: string): number | null {
  const gate = chain.nodes[gateIndex];
  const name = override ?? (gate?.kind === 'gate' ? gate.reject_to : undefined);
  if (name) {
    const i = chain.nodes.findIndex((n) => n.id === name);
    return i >= 0 && i < gateIndex && chain.nodes[i]!.kind === 'exec' ? i : null;
  }
  for (let i = gateIndex - 1; i >= 0; i--) if (chain.nodes[i]!.kind === 'exec') return i;
  return null;
}

/** Which failure a step stops on when several tasks fail differently: the one a person must act on first. */
const precedence: SessionStatus[] = [
  'config_error',
  'infra_error',
  'oom_killed',
  'budget_exceeded',
  'rate_limited',
  'needs_context',
  'capped_out',
  'unknown',
  'failed',
];

/** A session that ended as its task wanted: done, or done with concerns. */
export const passed = (s: string): boolean => s === 'done' || s === 'done_with_concerns';

export function worstStatus(statuses: SessionStatus[]): SessionStatus | null {
  for (const s of precedence) if (statuses.includes(s)) return s;
  return null;
}

/** The stop a session's status leads to when it is the worst of its step (a pass leads to none). */
export const stopKindOf: Partial<Record<SessionStatus, StopKind>> = {
  config_error: 'config',
  infra_error: 'infra',
  oom_killed: 'sandbox_oom_killed',
  budget_exceeded: 'budget',
  rate_limited: 'rate_limit',
  needs_context: 'question',
  capped_out: 'cap',
  unknown: 'infra',
  failed: 'failed',
};

/** Every step of a plan, and of the plans its steps and tasks fall back on (`on_failure`). */
function* planSteps(steps: readonly ModelStep[]): Generator<ModelStep> {
  for (const step of steps) {
    yield step;
    if (step.on_failure) yield* planSteps(step.on_failure.steps);
    for (const t of step.tasks) if (t.on_failure) yield* planSteps(t.on_failure.steps);
  }
}

/** The step of a resolved chain at `path`: a node's own, or one of its handlers' plans. */
export function stepAt(chain: ResolvedChain, path: string): ModelStep | null {
  for (const node of chain.nodes) {
    if (node.kind !== 'exec') continue;
    const plans = [
      node.steps,
      node.on_failure?.steps,
      node.fix_loop?.steps,
      node.on_base_changed?.on_conflict?.steps,
    ];
    for (const steps of plans) for (const s of planSteps(steps ?? [])) if (s.path === path) return s;
  }
  return null;
}
