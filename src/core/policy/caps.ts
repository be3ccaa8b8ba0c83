import type { PolicyFile, PolicyLevel } from '../../contract/config/policy.js';
import { CAP_KEYS, type CapKey, type ScopePolicy } from '../../contract/config/scope-policy.js';
import type { Problem } from '../../contract/problems.js';
import { describeChainPath } from '../chain/paths.js';
import { child, entry, locate, type ANode, type PathSeg } from '../config/tree.js';
import { chainScopes, type Scope } from './scopes.js';

export interface CapValue {
  /** What the scope runs under; null when no layer sets one. */
  value: number | null;
  /** `chain`, `library:<section>.<name>`, `policy` (policy.yaml defaults) or `default` (none). */
  source: string;
  /** The bound: `maxima.<level>` or an enclosing scope's value (`level` names which). */
  maximum: { value: number; level: string } | null;
  exceeds: boolean;
}
export interface CapScope {
  path: string;
  kind: Scope['kind'];
  level: PolicyLevel;
  caps: Record<CapKey, CapValue>;
}

interface ChainInput {
  id: string;
  checked: unknown;
  tree: ANode | null;
}

function ownEntry(tree: ANode | null, dataPath: PathSeg[], cap: CapKey) {
  let n: ANode | undefined = tree ?? undefined;
  for (const seg of dataPath) n = child(n, seg);
  return entry(child(n, 'policy'), cap);
}

/**
 * The effective caps of every scope of a resolved chain (the policy preview), and a problem for
 * each cap a chain or library layer sets past its bound: `maxima.<level>`, a repo's policy, or
 * the enclosing scope (a child may tighten, never relax). Problems name the chain.
 */
export function capScopes(
  chain: ChainInput,
  policy: PolicyFile | null,
  repoPolicy?: ScopePolicy,
): { scopes: CapScope[]; problems: Problem[] } {
  const scopes = chainScopes(chain.checked);
  const values = new Map<Scope, Record<CapKey, CapValue>>();
  const problems: Problem[] = [];
  const out: CapScope[] = [];
  for (const s of scopes) {
    const caps = {} as Record<CapKey, CapValue>;
    for (const cap of CAP_KEYS) {
      const own = s.policy?.[cap];
      const e = typeof own === 'number' ? ownEntry(chain.tree, s.dataPath, cap) : undefined;
      const dflt = policy?.defaults?.[s.level]?.[cap];
      const value = typeof own === 'number' ? own : (dflt ?? null);
      const source =
        typeof own === 'number' ? (e?.origin.source ?? 'chain') : dflt !== undefined ? 'policy' : 'default';
      const bounds: { value: number; level: string }[] = [];
      const max = policy?.maxima?.[s.level]?.[cap];
      if (max !== undefined) bounds.push({ value: max, level: `maxima.${s.level}` });
      const up = s.parent ? values.get(s.parent)?.[cap] : undefined;
      if (up?.value != null) bounds.push({ value: up.value, level: s.parent!.path || 'chain' });
      if (!s.parent && repoPolicy?.[cap] !== undefined)
        bounds.push({ value: repoPolicy[cap], level: 'repo' });
      const maximum = bounds.reduce<CapValue['maximum']>(
        (m, b) => (m === null || b.value < m.value ? b : m),
        null,
      );
      const exceeds = value !== null && maximum !== null && value > maximum.value;
      caps[cap] = { value, source, maximum, exceeds };
      if (exceeds && typeof own === 'number') {
        const where = locate(chain.tree!, [...s.dataPath, 'policy', cap], 'value');
        const what = maximum.level.startsWith('maxima.')
          ? `${maximum.level}.${cap}`
          : maximum.level === 'repo'
            ? `the repo's policy.${cap}`
            : `\`${maximum.level}\`'s ${cap}`;
        problems.push({
          ...(s.kind === 'chain'
            ? { path: '', field: `policy.${cap}` }
            : describeChainPath(chain.checked, [...s.dataPath, 'policy', cap])),
          message: `chain \`${chain.id}\`: ${cap} ${own} exceeds ${what} ${maximum.value}`,
          ...where,
        });
      }
    }
    values.set(s, caps);
    out.push({ path: s.path || chain.id, kind: s.kind, level: s.level, caps });
  }
  return { scopes: out, problems };
}
