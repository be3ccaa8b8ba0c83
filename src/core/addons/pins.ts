/** Keys whose values name add-on content that is read when a task launches, or was merged in. */
const REF_KEYS = new Set(['extends', 'skill', 'profile', 'steering']);

/**
 * The add-ons a resolved chain uses, each with the digest of the version installed now: what an
 * item freezes with its chain so its launches read that version's skills, profiles and steering
 * after an update (ADR 0020). Null when the chain uses none. `jig:` (packaged skills) is no add-on.
 */
export function addonPins(
  resolved: unknown,
  digests: Readonly<Record<string, string>>,
): Record<string, string> | null {
  const pins: Record<string, string> = {};
  const take = (v: unknown): void => {
    if (typeof v !== 'string') return;
    const colon = v.indexOf(':');
    if (colon <= 0) return;
    const ns = v.slice(0, colon);
    const digest = digests[ns];
    if (digest !== undefined) pins[ns] = digest;
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (REF_KEYS.has(k)) {
        if (Array.isArray(x)) x.forEach(take);
        else take(x);
      }
      walk(x);
    }
  };
  walk(resolved);
  return Object.keys(pins).length > 0 ? pins : null;
}
