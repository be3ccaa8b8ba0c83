import type { Problem } from '../../contract/problems.js';
import type { ChainLoad } from '../chain/load-chain.js';
import type { LibraryLoad } from '../chain/load-library.js';
import { walkChain } from '../chain/walk.js';
import { capScopes } from '../policy/caps.js';
import { gateTimeoutChecks } from '../policy/gate-timeout.js';
import { toolPolicies } from '../policy/ratchet.js';
import { sandboxProblems } from '../policy/sandbox.js';
import { unmeteredCapProblems } from '../policy/unmetered.js';
import type { Across, Found } from './across.js';
import { checkIcons } from './check-icons.js';
import { checkReferences } from './check-references.js';
import { locate } from './tree.js';
import { own } from '../json/own.js';

/** library.yaml: the harness, profile and steering names it uses; icons the board does not know (warnings). */
export function checkLibraryAcross(library: LibraryLoad, at: Across): Found {
  if (!library.tree) return { problems: [], warnings: [] };
  return {
    problems: checkReferences(library.tree, library.file, at.known, true),
    warnings: checkIcons(library.tree, library.file, true),
  };
}

/**
 * One chain file: the names it uses and its icons, then what policy.yaml and harnesses.yaml say of
 * its tasks (caps past the maxima, dollar caps over a CLI that tells no usage, sandbox, gate timeouts, harnesses outside policy, fallbacks).
 */
export function checkChainAcross(c: ChainLoad, at: Across): Found {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  if (c.tree && c.model) {
    problems.push(...checkReferences(c.tree, c.file, at.known, false));
    warnings.push(...checkIcons(c.tree, c.file, false));
  }
  if (!c.checked || !c.tree) return { problems, warnings };
  const pol = at.policy;
  const tree = c.tree;
  const input = { id: c.id, checked: c.checked, tree };
  problems.push(...capScopes(input, pol).problems, ...sandboxProblems(input));
  problems.push(...unmeteredCapProblems(input, pol, at.harnesses, at.unmetered));
  const gates = gateTimeoutChecks(input, pol);
  problems.push(...gates.problems);
  warnings.push(...gates.warnings);
  // A task on a harness its policy does not allow (a `never` harness, or `override` not asked for).
  const tools = toolPolicies(c.checked, pol);
  for (const v of walkChain(c.checked)) {
    const prof = v.value.profile;
    if (
      v.slot === 'auto_review' &&
      typeof prof === 'string' &&
      own(at.harnesses?.profiles, prof)?.fallback?.length
    ) {
      problems.push({
        path: v.path,
        field: 'profile',
        message: `profile \`${prof}\` carries a fallback, which an auto_review task cannot take`,
        ...locate(tree, [...v.dataPath, 'profile'], 'value'),
      });
    }
    const h = v.value.harness;
    const allowed = tools.get(v.path)?.allowed_harnesses;
    if (v.kind === 'task' && typeof h === 'string' && allowed && !allowed.includes(h)) {
      problems.push({
        path: v.path,
        field: 'harness',
        message: `chain \`${c.id}\`: harness \`${h}\` is not allowed by policy (allowed_harnesses: ${allowed.join(', ') || 'none'})`,
        ...locate(tree, [...v.dataPath, 'harness'], 'value'),
      });
    }
  }
  return { problems, warnings };
}
