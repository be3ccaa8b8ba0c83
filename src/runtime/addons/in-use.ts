import { formatProblem, type Problem } from '../../contract/problems.js';
import { validateConfigSet, type ConfigTexts } from '../../core/config/validate-set.js';

/**
 * Where your configuration uses an add-on: the problems the instance's own files (library,
 * chains, intake.yaml's schedules, repos.yaml's default chains, policy.yaml) would have without it
 * that they do not have with it. Checked through the config model itself, so every kind of
 * reference — `extends`, `skill`, `steering`, `profile`, a chain name — counts, and nothing that
 * merely mentions the name in a comment does.
 */
export function usesOf(texts: ConfigTexts, namespace: string): Problem[] {
  const addons = texts.addons;
  if (!addons) return [];
  const own = (ps: readonly Problem[]) => ps.filter((p) => !p.file.startsWith('addons/'));
  const before = new Set(own(validateConfigSet(texts).problems).map(formatProblem));
  const without = validateConfigSet({
    ...texts,
    addons: { ...addons, installed: addons.installed.filter((a) => a.namespace !== namespace) },
  });
  return own(without.problems).filter((p) => !before.has(formatProblem(p)));
}

/** The uses as one line for a refusal: `chains/mine.yaml:3 (notes), intake.yaml:7`. */
export function describeUses(uses: readonly Problem[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const p of uses) {
    const at = `${p.file}${p.line === null ? '' : `:${p.line}`}${p.path ? ` (${p.path})` : ''}`;
    if (seen.has(at)) continue;
    seen.add(at);
    parts.push(at);
  }
  return parts.join(', ');
}
