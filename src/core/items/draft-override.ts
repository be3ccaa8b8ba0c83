import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { PolicyFile, PolicyLevel } from '../../contract/config/policy.js';
import { CAP_KEYS, type CapKey } from '../../contract/config/scope-policy.js';
import type { OverrideOp } from '../../contract/items/draft.js';
import type { ResolvedChain } from '../chain/model.js';
import { walkChain, type Visit } from '../chain/walk.js';
import { toolPolicies } from '../policy/ratchet.js';
import { isModelId } from './overrides.js';
import { OVERRIDE_KEYS, policyOverrideProblem, type OverrideKey } from './policy-override.js';

/*
 * An item draft's `override`: a retry override's bounds, on the item's own chain. It sets only what
 * a retry may (model, effort, harness; the caps and fix-loop limits), never a structural field; a
 * cap may be tightened, or raised no higher than the maxima and the scopes above it allow; a
 * harness must be inside the allowed_harnesses the task runs under.
 */

export const TASK_CONFIG_KEYS = ['model', 'effort', 'harness'] as const;
const HARNESS_ID = /^[a-z][a-z0-9_-]{0,63}$/;
const LEVEL = { node: 'nodes', step: 'steps', task: 'tasks' } as const satisfies Record<
  Visit['kind'],
  PolicyLevel
>;
/** The fix-loop limits: an exec node's, bounded by the maxima's operational keys. */
const LOOP_KEYS: readonly OverrideKey[] = ['max_attempts', 'timeout_minutes'];

const isCap = (k: string): k is CapKey => (CAP_KEYS as readonly string[]).includes(k);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const policyOf = (v: Visit): Record<string, unknown> => {
  const p = v.value.policy;
  return p && typeof p === 'object' && !Array.isArray(p) ? { ...p } : {};
};

/** The agent tasks at or under a scope. */
function agentTasks(visits: readonly Visit[], at: Visit): Visit[] {
  return visits.filter(
    (v) =>
      v.kind === 'task' &&
      v.value.kind === 'agent' &&
      (v.path === at.path || v.path.startsWith(`${at.path}.`)),
  );
}

function taskConfigProblem(
  op: OverrideOp,
  chain: ResolvedChain,
  visits: readonly Visit[],
  at: Visit,
  policy: PolicyFile | null,
  repoPolicy: ScopePolicy | undefined,
): string | null {
  const tc = op.task_config;
  if (!tc) return null;
  for (const k of Object.keys(tc)) {
    if (!(TASK_CONFIG_KEYS as readonly string[]).includes(k))
      return `task_config.${k} is not something an override may set: only ${TASK_CONFIG_KEYS.join(', ')} (no structural field)`;
  }
  if (tc.model !== undefined && !isModelId(tc.model))
    return `task_config.model ${JSON.stringify(tc.model)} is not a model id`;
  if (
    tc.effort !== undefined &&
    (typeof tc.effort !== 'string' || tc.effort.trim() === '' || tc.effort.length > 40)
  )
    return 'task_config.effort is not an effort (a word of at most 40 characters)';
  if (tc.harness !== undefined && (typeof tc.harness !== 'string' || !HARNESS_ID.test(tc.harness)))
    return `task_config.harness ${JSON.stringify(tc.harness)} is not a harness id`;
  const tasks = agentTasks(visits, at);
  if (tasks.length === 0) return `no agent task at or under \`${op.path}\` takes task_config`;
  if (typeof tc.harness === 'string') {
    const tools = toolPolicies(chain, policy, repoPolicy);
    for (const t of tasks) {
      const allowed = tools.get(t.path)?.allowed_harnesses ?? null;
      if (allowed && !allowed.includes(tc.harness))
        return `task_config.harness \`${tc.harness}\` is outside allowed_harnesses of \`${t.path}\` (${allowed.join(', ') || 'none'})`;
    }
  }
  return null;
}

/** The tightest bound above a scope for one key: the maxima's, then each enclosing scope's own. */
function bound(
  chain: ResolvedChain,
  at: Visit,
  key: OverrideKey,
  policy: PolicyFile | null,
): { value: number; what: string } | null {
  const bounds: { value: number; what: string }[] = [];
  const max = isCap(key) ? num(policy?.maxima?.[LEVEL[at.kind]]?.[key]) : num(policy?.maxima?.[key]);
  if (max !== undefined)
    bounds.push({ value: max, what: isCap(key) ? `maxima.${LEVEL[at.kind]}.${key}` : `maxima.${key}` });
  if (isCap(key)) {
    for (let p = at.parent; p; p = p.parent) {
      const v = num(policyOf(p)[key]);
      if (v !== undefined) bounds.push({ value: v, what: `\`${p.path}\`'s ${key}` });
    }
    const top = num(chain.policy?.[key]);
    if (top !== undefined) bounds.push({ value: top, what: `the chain's ${key}` });
  }
  return bounds.reduce<{ value: number; what: string } | null>(
    (m, b) => (m === null || b.value < m.value ? b : m),
    null,
  );
}

function policyProblem(
  op: OverrideOp,
  chain: ResolvedChain,
  at: Visit,
  policy: PolicyFile | null,
): string | null {
  const p = op.policy;
  if (!p) return null;
  for (const k of Object.keys(p)) {
    if (!(OVERRIDE_KEYS as readonly string[]).includes(k))
      return `policy.${k} is not something an override may set: only ${OVERRIDE_KEYS.join(', ')}`;
  }
  const shape = policyOverrideProblem({ [op.path]: p });
  if (shape) return `${shape.field.replace(`policy_override.${op.path}.`, 'policy.')} ${shape.message}`;
  for (const k of OVERRIDE_KEYS) {
    const value = num(p[k]);
    if (value === undefined) continue;
    if (LOOP_KEYS.includes(k) && (at.kind !== 'node' || at.value.kind !== 'exec'))
      return `${k} is a fix-loop limit of an exec node; \`${op.path}\` is a ${at.kind}`;
    const b = bound(chain, at, k, policy);
    if (b && value > b.value) return `${k} ${value} exceeds ${b.what} (${b.value})`;
  }
  return null;
}

/** Why the override cannot apply to the chain as it stands, or null. */
export function overrideProblem(
  op: OverrideOp,
  chain: ResolvedChain,
  policy: PolicyFile | null,
  repoPolicy?: ScopePolicy,
): string | null {
  const visits = walkChain(chain);
  const at = visits.find((v) => v.path === op.path);
  if (!at) return `\`${op.path}\` names nothing in the item's chain`;
  if (at.kind === 'node' && at.value.kind === 'gate')
    return `\`${op.path}\` is a gate: an override sets an exec node, step or task`;
  if (op.task_config === undefined && op.policy === undefined)
    return 'an override sets task_config, policy or both';
  return taskConfigProblem(op, chain, visits, at, policy, repoPolicy) ?? policyProblem(op, chain, at, policy);
}

/**
 * Applies a checked override to `chain` in place: the policy keys onto the scope's own `policy`, the
 * task_config onto every agent task at or under it (a model or effort replaces a profile, which
 * would otherwise win over them).
 */
export function applyOverride(op: OverrideOp, chain: ResolvedChain): void {
  const visits = walkChain(chain);
  const at = visits.find((v) => v.path === op.path);
  if (!at) return;
  if (op.policy && Object.keys(op.policy).length > 0) at.value.policy = { ...policyOf(at), ...op.policy };
  const tc = op.task_config;
  if (!tc) return;
  for (const t of agentTasks(visits, at)) {
    for (const k of TASK_CONFIG_KEYS) if (typeof tc[k] === 'string') t.value[k] = tc[k];
    if (typeof tc.model === 'string' || typeof tc.effort === 'string') delete t.value.profile;
  }
}
