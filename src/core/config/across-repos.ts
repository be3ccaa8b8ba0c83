import type { ReposFile } from '../../contract/config/repos.js';
import { CAP_KEYS } from '../../contract/config/scope-policy.js';
import type { Problem } from '../../contract/problems.js';
import { sameSandbox } from '../policy/sandbox.js';
import type { Across } from './across.js';
import type { FileLoad } from './load-file.js';
import { didYouMean } from './suggest.js';
import { locate } from './tree.js';

/**
 * repos.yaml against the rest: default chains, steering and harness names, and a repo's policy,
 * which may only tighten policy.yaml's maxima and may not change the repo's sandbox.
 */
export function checkReposAcross(repos: FileLoad<ReposFile>, across: Across): Problem[] {
  if (!repos.model || !repos.tree) return [];
  const tree = repos.tree;
  const { known } = across;
  const harnesses = known.harnesses;
  const maxima = across.policy?.maxima;
  const problems: Problem[] = [];
  repos.model.repos.forEach((r, i) => {
    const at = (path: (string | number)[], message: string, mode: 'key' | 'value' = 'value'): Problem => ({
      path: `repos.${i}`,
      field: path.join('.'),
      message: `repo \`${r.path}\`: ${message}`,
      ...locate(tree, ['repos', i, ...path], mode),
    });
    if (r.default_chain && !across.chainExists(r.default_chain)) {
      problems.push(
        at(
          ['default_chain'],
          `default_chain \`${r.default_chain}\` names no chain${didYouMean(r.default_chain, across.chainIds)}`,
        ),
      );
    }
    r.steering?.forEach((s, j) => {
      if (!known.steeringExists(s))
        problems.push(
          at(
            ['steering', j],
            `steering \`${s}\` is not in library.yaml \`steering:\`${didYouMean(s, known.steering)}`,
          ),
        );
    });
    if (harnesses) {
      for (const h of Object.keys(r.models ?? {})) {
        if (!harnesses.includes(h))
          problems.push(
            at(
              ['models', h],
              `models: \`${h}\` is not a harness in harnesses.yaml${didYouMean(h, harnesses)}`,
              'key',
            ),
          );
      }
    }
    // The repo layer sits above the chain: its caps are work-item caps, bounded by
    // maxima.work_item (narrower levels are bounded by the smaller of the two, never relaxed).
    const rp = r.policy;
    for (const cap of CAP_KEYS) {
      const v = rp?.[cap];
      const max = maxima?.work_item?.[cap];
      if (v !== undefined && max !== undefined && v > max) {
        problems.push(
          at(
            ['policy', cap],
            `policy.${cap} ${v} relaxes policy.yaml maxima.work_item.${cap} ${max}; a repo's policy may only tighten`,
          ),
        );
      }
    }
    for (const k of ['max_attempts', 'timeout_minutes'] as const) {
      const v = rp?.[k];
      const max = maxima?.[k];
      if (v !== undefined && max !== undefined && v > max) {
        problems.push(
          at(
            ['policy', k],
            `policy.${k} ${v} relaxes policy.yaml maxima.${k} ${max}; a repo's policy may only tighten`,
          ),
        );
      }
    }
    if (harnesses) {
      rp?.allowed_harnesses?.forEach((h, j) => {
        if (!harnesses.includes(h))
          problems.push(
            at(
              ['policy', 'allowed_harnesses', j],
              `harness \`${h}\` is not in harnesses.yaml${didYouMean(h, harnesses)}`,
            ),
          );
      });
      const esc = rp?.escalation_harness;
      if (esc !== undefined && esc !== 'item' && !harnesses.includes(esc))
        problems.push(
          at(
            ['policy', 'escalation_harness'],
            `escalation_harness \`${esc}\` is not a harness in harnesses.yaml (or \`item\`)${didYouMean(esc, harnesses)}`,
          ),
        );
    }
    // Sandbox is set once: the repo's `policy.sandbox` may repeat its `sandbox`, not change it.
    if (r.sandbox && rp?.sandbox && !sameSandbox(r.sandbox, rp.sandbox)) {
      problems.push(
        at(
          ['policy', 'sandbox'],
          "sandbox is set once, by the repo's `sandbox`; its `policy.sandbox` cannot change it",
          'key',
        ),
      );
    }
  });
  return problems;
}
