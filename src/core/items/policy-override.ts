/**
 * An item's own `policy_override`: per canonical component path (`verification`,
 * `verification.review.code_review`), numbers that replace what the chain and policy.yaml give that
 * scope for this item only. policy.yaml `maxima` still clamp them.
 */
export const OVERRIDE_KEYS = [
  'max_attempts',
  'timeout_minutes',
  'time_cap_minutes',
  'token_budget',
  'budget_usd',
] as const;
export type OverrideKey = (typeof OVERRIDE_KEYS)[number];
export type ScopeOverride = Partial<Record<OverrideKey, number>>;

const PATH = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

/** The first thing wrong with an override, as `{field, message}`, or null. */
export function policyOverrideProblem(value: unknown): { field: string; message: string } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { field: 'policy_override', message: 'is not an object of component paths' };
  for (const [path, v] of Object.entries(value as Record<string, unknown>)) {
    const field = `policy_override.${path}`;
    if (!PATH.test(path)) return { field, message: 'is not a component path (e.g. verification.review)' };
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { field, message: 'is not an object' };
    for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
      if (!(OVERRIDE_KEYS as readonly string[]).includes(k))
        return { field: `${field}.${k}`, message: `is not one of ${OVERRIDE_KEYS.join(', ')}` };
      const int = k === 'max_attempts' || k === 'token_budget';
      if (typeof n !== 'number' || !(n > 0) || (int && !Number.isInteger(n)))
        return { field: `${field}.${k}`, message: `must be a positive ${int ? 'integer' : 'number'}` };
    }
  }
  return null;
}

/** The override an item sets for one scope (empty when none). */
export function overrideAt(value: unknown, path: string): ScopeOverride {
  const v = (value as Record<string, unknown> | null | undefined)?.[path];
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}
