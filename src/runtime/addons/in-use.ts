import { formatProblem, type Problem } from '../../contract/problems.js';
import { validateConfigSet, type ConfigTexts } from '../../core/config/validate-set.js';

/**
 * Where your configuration uses an add-on: what your files would lose without it (brokenBy).
 * Checked through the config model itself, so every kind of reference — `extends`, `steering`,
 * `profile`, `skill`, a chain name — counts, and nothing that merely mentions the name in a
 * comment does.
 */
export function usesOf(texts: ConfigTexts, namespace: string): Problem[] {
  const addons = texts.addons;
  if (!addons) return [];
  return brokenBy(texts, {
    ...texts,
    addons: { ...addons, installed: addons.installed.filter((a) => a.namespace !== namespace) },
  });
}

/**
 * What the instance's own files (library, chains, intake.yaml's schedules, repos.yaml's default
 * chains, policy.yaml) would lose going from `now` to `next`, the same files with the add-ons
 * installed otherwise: the problems they would have that they do not have now (a `skill:` naming
 * an add-on's skill included: the config model checks those).
 */
export function brokenBy(now: ConfigTexts, next: ConfigTexts): Problem[] {
  const own = (ps: readonly Problem[]) => ps.filter((p) => !p.file.startsWith('addons/'));
  const had = new Set(own(validateConfigSet(now).problems).map(formatProblem));
  return own(validateConfigSet(next).problems).filter((p) => !had.has(formatProblem(p)));
}

/**
 * The uses as one line for a refusal: `chains/mine.yaml:3 (notes), intake.yaml:7`, each component
 * once, at its first line (a component copied from the add-on can break on several).
 */
export function describeUses(uses: readonly Problem[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const p of uses) {
    const key = p.path ? `${p.file}\u0000${p.path}` : `${p.file}\u0000${p.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(`${p.file}${p.line === null ? '' : `:${p.line}`}${p.path ? ` (${p.path})` : ''}`);
  }
  return parts.join(', ');
}
