import type { PolicyFile } from '../../contract/config/policy.js';
import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import { chainScopes, type Scope } from './scopes.js';

/** The non-cap policy a scope runs under, after every layer above it. */
export interface ToolPolicy {
  /** null: no bound. Each layer's list is intersected (a layer can only remove names). */
  allowed_tools: string[] | null;
  /** Accumulates down the layers. */
  deny_tools: string[];
  grants: string[];
  /** Harnesses a task here may launch on; null: no bound. */
  allowed_harnesses: string[] | null;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

function narrow(
  base: ToolPolicy,
  p: Record<string, unknown> | ScopePolicy | undefined,
  maxHarnesses: string[] | null,
): ToolPolicy {
  if (!p) return base;
  const rec = p as Record<string, unknown>;
  const allowed = strings(rec.allowed_tools);
  const deny = strings(rec.deny_tools) ?? [];
  const grants = strings(rec.grants) ?? [];
  const harnesses = strings(rec.allowed_harnesses);
  return {
    allowed_tools: allowed
      ? base.allowed_tools
        ? base.allowed_tools.filter((t) => allowed.includes(t))
        : allowed
      : base.allowed_tools,
    deny_tools: [...new Set([...base.deny_tools, ...deny])],
    grants: [...new Set([...base.grants, ...grants])],
    // A scope may name a harness the maxima allow (an `override` harness) but nothing past them.
    allowed_harnesses: harnesses
      ? maxHarnesses
        ? harnesses.filter((h) => maxHarnesses.includes(h))
        : harnesses
      : base.allowed_harnesses,
  };
}

/**
 * Layers policy.yaml (maxima ∩ defaults for tools, defaults for harnesses), a repo's policy, then
 * the chain and each node, step and task: allowed_tools intersect, deny_tools and grants
 * accumulate, allowed_harnesses is the nearest list within the maxima.
 */
export function toolPolicies(
  checked: unknown,
  policy: PolicyFile | null,
  repoPolicy?: ScopePolicy,
): Map<string, ToolPolicy> {
  const maxH = policy?.maxima?.allowed_harnesses ?? null;
  let top: ToolPolicy = {
    allowed_tools: policy?.maxima?.allowed_tools ?? null,
    deny_tools: [],
    grants: [],
    allowed_harnesses: policy?.defaults?.allowed_harnesses ?? maxH,
  };
  top = narrow(
    top,
    policy?.defaults?.allowed_tools ? { allowed_tools: policy.defaults.allowed_tools } : undefined,
    maxH,
  );
  top = narrow(top, repoPolicy, maxH);
  const out = new Map<string, ToolPolicy>();
  const by = new Map<Scope, ToolPolicy>();
  for (const s of chainScopes(checked)) {
    const eff = narrow(s.parent ? by.get(s.parent)! : top, s.policy, maxH);
    by.set(s, eff);
    out.set(s.path, eff);
  }
  return out;
}
