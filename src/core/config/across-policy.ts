import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import { fixLoopKeys } from '../policy/loops.js';
import type { Across, Found } from './across.js';
import type { FileLoad } from './load-file.js';
import { didYouMean } from './suggest.js';
import { locate } from './tree.js';

/**
 * policy.yaml against the rest: loop keys name fix loops of the chains, harness names are in
 * harnesses.yaml, and 1.x `triggers:` name chains (each trigger also warns that it moved).
 */
export function checkPolicyAcross(policy: FileLoad<PolicyFile>, across: Across): Found {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  if (!policy.model || !policy.tree) return { problems, warnings };
  const model = policy.model;
  const tree = policy.tree;
  const loops = fixLoopKeys(across.chains.flatMap((c) => (c.checked ? [c.checked] : [])));
  // A chain that does not load hides its loops: a key is only wrong when every chain was seen.
  const allLoaded = across.chains.every((c) => c.checked);
  if (allLoaded) {
    for (const key of Object.keys(model.loops)) {
      if (!loops.has(key)) {
        problems.push({
          path: 'loops',
          field: key,
          message: `\`${key}\` names no fix loop of any chain${didYouMean(key, [...loops])}`,
          ...locate(tree, ['loops', key], 'key'),
        });
      }
    }
  }
  const harnesses = across.known.harnesses;
  if (harnesses) {
    for (const block of ['defaults', 'maxima'] as const) {
      model[block]?.allowed_harnesses?.forEach((h, i) => {
        if (!harnesses.includes(h)) {
          problems.push({
            path: `${block}.allowed_harnesses`,
            field: String(i),
            message: `harness \`${h}\` is not in harnesses.yaml${didYouMean(h, harnesses)}`,
            ...locate(tree, [block, 'allowed_harnesses', i], 'value'),
          });
        }
      });
    }
    const esc = model.defaults?.escalation_harness;
    if (esc && esc !== 'item' && !harnesses.includes(esc)) {
      problems.push({
        path: 'defaults',
        field: 'escalation_harness',
        message: `harness \`${esc}\` is not in harnesses.yaml (or \`item\`)${didYouMean(esc, harnesses)}`,
        ...locate(tree, ['defaults', 'escalation_harness'], 'value'),
      });
    }
  }
  model.triggers?.forEach((t, i) => {
    warnings.push({
      path: `triggers.${i}`,
      field: null,
      message: '`triggers:` moved to intake.yaml `schedules:`; this entry still fires',
      ...locate(tree, ['triggers', i], 'value'),
    });
    const name = t.chain ?? t.chain_template;
    if (name && !across.chainExists(name)) {
      problems.push({
        path: `triggers.${i}`,
        field: 'chain',
        message: `chain \`${name}\` is not in the library`,
        ...locate(tree, ['triggers', i, t.chain ? 'chain' : 'chain_template'], 'value'),
      });
    }
  });
  return { problems, warnings };
}
