import type {
  ModelExecNode,
  ModelNode,
  ModelStep,
  ModelTask,
  ResolvedChain,
} from '../../core/chain/model.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import { overrideAt } from '../../core/items/policy-override.js';
import type { SessionStatus } from '../../store/sessions.js';
import type { StopKind } from '../../contract/item-status.js';

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
  const own = (x: unknown): number | undefined => {
    const p = (x as { policy?: { time_cap_minutes?: unknown } } | undefined)?.policy;
    return typeof p?.time_cap_minutes === 'number' ? p.time_cap_minutes : undefined;
  };
  const defaults = policy?.defaults?.tasks;
  return own(task) ?? own(step) ?? own(node) ?? own(chain) ?? defaults?.time_cap_minutes ?? null;
}

/** The exec node a rejection re-enters: `reject_to`, else the nearest exec node before the gate. */
export function rejectTarget(chain: ResolvedChain, gateIndex: number, override?: string): number | null {
  const gate = chain.nodes[gateIndex] as ModelNode & { reject_to?: string };
  const name = override ?? gate.reject_to;
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
  budget_exceeded: 'budget',
  rate_limited: 'rate_limit',
  needs_context: 'question',
  capped_out: 'cap',
  unknown: 'infra',
  failed: 'failed',
};
