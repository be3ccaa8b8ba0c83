import { Sandbox } from '../../contract/config/sandbox.js';
import type { Problem } from '../../contract/problems.js';
import { chainScopes, type Scope } from './scopes.js';
import { reporter } from '../chain/report.js';
import { walkChain, type Visit } from '../chain/walk.js';
import type { ANode } from '../config/tree.js';

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A value with its object keys sorted, so two sandboxes compare by content. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = obj(v);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function sameSandbox(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * `policy.sandbox` is set once: the broadest layer of a chain that sets it (the chain, else a
 * node, step or task) fixes it for everything inside, and a narrower scope that sets a different
 * one is a problem at its own `policy.sandbox`, naming the scope that set it first. Writing the
 * same sandbox again is allowed. A repo's sandbox against a chain's is checked at launch, where
 * the two meet.
 */
export function sandboxProblems(chain: { id: string; checked: unknown; tree: ANode }): Problem[] {
  const report = reporter(chain.checked, chain.tree);
  const rootSandbox = obj(obj(chain.checked)?.policy)?.sandbox;
  const out: Problem[] = [];
  const first = (v: Visit): { where: string; sandbox: unknown } | null => {
    const ups: Visit[] = [];
    for (let p = v.parent; p; p = p.parent) ups.unshift(p);
    if (rootSandbox !== undefined) return { where: "the chain's policy", sandbox: rootSandbox };
    for (const p of ups) {
      const s = obj(p.value.policy)?.sandbox;
      if (s !== undefined) return { where: `\`${p.path}\``, sandbox: s };
    }
    return null;
  };
  for (const v of walkChain(chain.checked)) {
    if (v.synthetic) continue;
    const own = obj(v.value.policy)?.sandbox;
    if (own === undefined) continue;
    const set = first(v);
    if (set && !sameSandbox(own, set.sandbox)) {
      out.push(
        report(
          [...v.dataPath, 'policy', 'sandbox'],
          `chain \`${chain.id}\`: sandbox is set once, by ${set.where}; a narrower layer cannot change it`,
          'key',
        ),
      );
    }
  }
  return out;
}

/**
 * The sandbox a chain sets for a task (the broadest scope on the task's path that sets one, the
 * chain's own policy first), with where it was set; null when none does. A path the chain does not
 * hold (the setup command's) gets the chain's own.
 */
export function chainSandbox(checked: unknown, taskPath: string): { sandbox: Sandbox; where: string } | null {
  const scopes = chainScopes(checked);
  const root = scopes[0];
  const at = scopes.find((s) => s.path === taskPath) ?? root;
  const line: Scope[] = [];
  for (let s: Scope | null | undefined = at; s; s = s.parent) line.unshift(s);
  for (const s of line) {
    const parsed = Sandbox.safeParse(s.policy?.sandbox);
    if (s.policy?.sandbox !== undefined && parsed.success)
      return { sandbox: parsed.data, where: s.path === '' ? "the chain's policy" : `\`${s.path}\`` };
  }
  return null;
}
