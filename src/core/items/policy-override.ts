/**
 * An item's own `policy_override`: per canonical component path (`verification`,
 * `verification.review.code_review`), numbers that replace what the chain and policy.yaml give that
 * scope for this item only. policy.yaml `maxima` still clamp them.
 */
export const OVERRIDE_KEYS = [
  'max_attempts',
  'timeout_minutes',
  'time_cap_minutes',
  'total_time_cap_minutes',
  'token_budget',
  'budget_usd',
] as const;
export type OverrideKey = (typeof OVERRIDE_KEYS)[number];
export type ScopeOverride = Partial<Record<OverrideKey, number>>;

const PATH = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

/**
 * The first thing wrong with an override, as `{field, message}`, or null. Two spellings are read:
 * `{"verification": {"max_attempts": 5}}` and the flat `{"verification.max_attempts": 5}` (what
 * `--policy PATH.FIELD=VALUE` writes).
 */
export function policyOverrideProblem(value: unknown): { field: string; message: string } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { field: 'policy_override', message: 'is not an object of component paths' };
  for (const [path, v] of Object.entries(value as Record<string, unknown>)) {
    const field = `policy_override.${path}`;
    if (!PATH.test(path)) return { field, message: 'is not a component path (e.g. verification.review)' };
    const last = path.split('.').at(-1)!;
    if (typeof v !== 'object' && (OVERRIDE_KEYS as readonly string[]).includes(last) && path.includes('.')) {
      const bad = numberProblem(last, v);
      if (bad) return { field, message: bad };
      continue;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { field, message: 'is not an object' };
    for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
      if (!(OVERRIDE_KEYS as readonly string[]).includes(k))
        return { field: `${field}.${k}`, message: `is not one of ${OVERRIDE_KEYS.join(', ')}` };
      const bad = numberProblem(k, n);
      if (bad) return { field: `${field}.${k}`, message: bad };
    }
  }
  return null;
}

function numberProblem(key: string, n: unknown): string | null {
  const int = key === 'max_attempts' || key === 'token_budget';
  return typeof n !== 'number' || !(n > 0) || (int && !Number.isInteger(n))
    ? `must be a positive ${int ? 'integer' : 'number'}`
    : null;
}

/** The override an item sets for one scope (empty when none), from either spelling. */
export function overrideAt(value: unknown, path: string): ScopeOverride {
  const all =
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const nested = all[path];
  const out: ScopeOverride =
    nested && typeof nested === 'object' && !Array.isArray(nested) ? { ...(nested as ScopeOverride) } : {};
  for (const k of OVERRIDE_KEYS) {
    const flat = all[`${path}.${k}`];
    if (typeof flat === 'number') out[k] = flat;
  }
  return out;
}
