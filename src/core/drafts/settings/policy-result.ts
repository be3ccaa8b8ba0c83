import { DEFAULT_LOOP_SEVERITIES } from '../../../contract/config/policy.js';
import { POLICY_LEVELS, type PolicyFile, type PolicyLevel } from '../../../contract/config/policy.js';
import type { Sandbox } from '../../../contract/config/sandbox.js';
import type { DraftProblem } from '../../../contract/drafts/answers.js';
import { toPlain } from '../../config/tree.js';
import { isObj, type Obj } from '../ops/context.js';
import type { SettingsInput, SettingsPart } from './docs.js';
import { dottedChanges } from './key-changes.js';
import { exceededProblems, policyLimits, type PolicyLimits, type PolicyValue } from './policy-limits.js';
import { policyLoops, type PolicyLoops } from './policy-loops.js';
import { POLICY_FILE, POLICY_SCOPES, type PolicyScope } from './policy-ops.js';

/*
 * The policy draft's part of the result object (spec drafts.md, "Resolved answer for policy"):
 * policy.yaml grouped as the Policy screen shows it, each value with whether the file writes it.
 */

export interface PolicyResolved {
  limits: PolicyLimits;
  loops: PolicyLoops;
  escalation: {
    auto_escalate_stuck: PolicyValue<boolean>;
    auto_escalate_stuck_cap: PolicyValue<number>;
    auto_escalate_delay_s: PolicyValue<number>;
    auto_review_attempts: PolicyValue<number>;
  };
  retries: {
    rate_limit_retries: PolicyValue<number>;
    forge_cli_timeout_s: PolicyValue<number>;
    forge_poll_s: PolicyValue<number>;
  };
  housekeeping: {
    max_concurrent: PolicyValue<number>;
    archive_after_days: PolicyValue<number | null>;
    record_runs: PolicyValue<boolean>;
  };
  findings: { loop_severities: PolicyValue<string[]> };
  /** The instance default sandbox as written (docs/sandbox.md); null: tasks run unjailed. */
  sandbox: PolicyValue<Sandbox | null>;
  /** Read-only here: the harnesses draft sets these. */
  harnesses: {
    defaults: {
      allowed_harnesses: PolicyValue<string[] | null>;
      allowed_tools: PolicyValue<string[] | null>;
      escalation_harness: PolicyValue<string | null>;
      escalation_grants: PolicyValue<string[] | null>;
    };
    maxima: {
      allowed_harnesses: PolicyValue<string[] | null>;
      allowed_tools: PolicyValue<string[] | null>;
    };
  };
  /** Read-only: the blocks as written (null when absent), and legacy `triggers:` that still fire. */
  other: {
    max_concurrent: PolicyValue<number>;
    findings: unknown;
    archive: unknown;
    triggers: unknown;
  };
}

/** A value the file writes at `path` (dotted), else the value the schema fills in. */
function fromFile<T>(raw: Obj, path: string, value: T): PolicyValue<T> {
  let at: unknown = raw;
  for (const seg of path.split('.')) at = isObj(at) ? at[seg] : undefined;
  return { value, source: at === undefined ? 'default' : 'policy' };
}

const HARNESS_FIELDS = new Set([
  'allowed_harnesses',
  'allowed_tools',
  'escalation_harness',
  'escalation_grants',
]);
const TOP_SCOPE: Record<string, PolicyScope> = Object.fromEntries(
  Object.entries(POLICY_SCOPES).flatMap(([scope, keys]) =>
    keys.map((k): [string, PolicyScope] => [k.split('.')[0] ?? k, scope as PolicyScope]),
  ),
);

const isLevel = (s: string | undefined): s is PolicyLevel =>
  s !== undefined && (POLICY_LEVELS as readonly string[]).includes(s);

/** The group (and, for a cap, the level) a key of policy.yaml belongs to; null for the file itself. */
export function keyScope(dotted: string): { scope: string; level?: PolicyLevel } | null {
  const [top, second] = dotted.split('.');
  if (!top) return null;
  if (top === 'defaults' || top === 'maxima') {
    if (second !== undefined && HARNESS_FIELDS.has(second)) return { scope: 'harnesses' };
    return isLevel(second) ? { scope: 'limits', level: second } : { scope: 'limits' };
  }
  if (top === 'loops') return { scope: 'loops' };
  // `top` is a key of the file as typed (a draft's text may hold `constructor:`): only the table's own.
  return { scope: (Object.hasOwn(TOP_SCOPE, top) ? TOP_SCOPE[top] : undefined) ?? 'other' };
}

/** A file problem with the keys of the group it is in. */
function withScope(p: DraftProblem): DraftProblem {
  const where = keyScope([p.path, p.field].filter((s) => s !== null && s !== '').join('.'));
  return where ? { ...p, ...where } : p;
}

function resolve(policy: PolicyFile, raw: Obj, input: SettingsInput): PolicyResolved {
  const chains = Object.values(input.set.chains);
  const v = <T>(path: string, value: T) => fromFile(raw, path, value);
  return {
    limits: policyLimits(policy, chains),
    loops: policyLoops(policy, raw, chains),
    escalation: {
      auto_escalate_stuck: v('auto_escalate_stuck', policy.auto_escalate_stuck),
      auto_escalate_stuck_cap: v('auto_escalate_stuck_cap', policy.auto_escalate_stuck_cap),
      auto_escalate_delay_s: v('auto_escalate_delay_s', policy.auto_escalate_delay_s),
      auto_review_attempts: v('auto_review_attempts', policy.auto_review_attempts),
    },
    retries: {
      rate_limit_retries: v('rate_limit_retries', policy.rate_limit_retries),
      forge_cli_timeout_s: v('forge_cli_timeout_s', policy.forge_cli_timeout_s),
      forge_poll_s: v('forge_poll_s', policy.forge_poll_s ?? 300),
    },
    housekeeping: {
      max_concurrent: v('max_concurrent', policy.max_concurrent),
      archive_after_days: v('archive.after_days', policy.archive?.after_days ?? null),
      record_runs: v('record_runs', policy.record_runs),
    },
    findings: {
      loop_severities: v('findings.loop_severities', [
        ...(policy.findings?.loop_severities ?? DEFAULT_LOOP_SEVERITIES),
      ]),
    },
    sandbox: v('sandbox', policy.sandbox ?? null),
    harnesses: {
      defaults: {
        allowed_harnesses: v('defaults.allowed_harnesses', policy.defaults?.allowed_harnesses ?? null),
        allowed_tools: v('defaults.allowed_tools', policy.defaults?.allowed_tools ?? null),
        escalation_harness: v('defaults.escalation_harness', policy.defaults?.escalation_harness ?? null),
        escalation_grants: v('defaults.escalation_grants', policy.defaults?.escalation_grants ?? null),
      },
      maxima: {
        allowed_harnesses: v('maxima.allowed_harnesses', policy.maxima?.allowed_harnesses ?? null),
        allowed_tools: v('maxima.allowed_tools', policy.maxima?.allowed_tools ?? null),
      },
    },
    other: {
      max_concurrent: v('max_concurrent', policy.max_concurrent),
      findings: raw.findings ?? null,
      archive: raw.archive ?? null,
      triggers: raw.triggers ?? null,
    },
  };
}

/** The policy draft's resolved answer, problems and changes; null resolved while policy.yaml does not load. */
export function policyResult(input: SettingsInput): SettingsPart<PolicyResolved, null> {
  const load = input.set.policy;
  const base = (input.set.files[POLICY_FILE]?.problems ?? []).map(withScope);
  const changes =
    POLICY_FILE in input.after
      ? dottedChanges(POLICY_FILE, input.before[POLICY_FILE] ?? null, input.after[POLICY_FILE] ?? null, {
          noBound: (k) => k.startsWith('maxima.'),
          unparsable: load.tree === null,
        })
      : [];
  if (!load.model || !load.tree) return { resolved: null, problems: base, changes, impact: null };
  const plain = toPlain(load.tree);
  const raw: Obj = isObj(plain) ? plain : {};
  const resolved = resolve(load.model, raw, input);
  const chains = Object.values(input.set.chains);
  return {
    resolved,
    problems: [...base, ...exceededProblems(resolved.limits, load.model, chains, load.tree)],
    changes,
    impact: null,
  };
}
