import type { IntakeFile } from '../../contract/config/intake.js';
import type { Problem } from '../../contract/problems.js';
import type { Across } from './across.js';
import type { FileLoad } from './load-file.js';
import { didYouMean } from './suggest.js';
import { locate } from './tree.js';
import { own } from '../json/own.js';

/** intake.yaml against the rest: each schedule's chain and repo, and the polled repos, exist. */
export function checkIntakeAcross(intake: FileLoad<IntakeFile>, across: Across): Problem[] {
  if (!intake.model || !intake.tree) return [];
  const tree = intake.tree;
  // Without a loaded repos.yaml there is nothing to hold repo paths against.
  const repoPaths = across.repos?.repos.map((r) => r.path) ?? null;
  const workspaces = across.repos?.workspaces ?? {};
  const problems: Problem[] = [];
  intake.model.schedules.forEach((s, i) => {
    if (!across.chainExists(s.chain)) {
      problems.push({
        path: `schedules.${i}`,
        field: 'chain',
        message: `schedule ${i}: chain \`${s.chain}\` is not in the library${didYouMean(s.chain, across.chainIds)}`,
        ...locate(tree, ['schedules', i, 'chain'], 'value'),
      });
    }
    // A schedule's repo `constructor` is no workspace (and so not connected).
    const ws = own(workspaces, s.repo);
    if (repoPaths && !repoPaths.includes(s.repo) && !ws) {
      problems.push({
        path: `schedules.${i}`,
        field: 'repo',
        message: `schedule ${i}: repo \`${s.repo}\` is not connected (not in repos.yaml)`,
        ...locate(tree, ['schedules', i, 'repo'], 'value'),
      });
    }
    const names = Object.keys(ws?.members ?? {});
    const bad = ws ? (s.members ?? []).find((m) => !names.includes(m)) : s.members?.[0];
    if (repoPaths && bad !== undefined) {
      problems.push({
        path: `schedules.${i}`,
        field: 'members',
        message: ws
          ? `schedule ${i}: ${bad} is not a member of workspace ${s.repo} (its members: ${names.join(', ')})`
          : `schedule ${i}: members are for a workspace, and \`${s.repo}\` is not one`,
        ...locate(tree, ['schedules', i, 'members'], 'value'),
      });
    }
  });
  intake.model.repos.forEach((p, i) => {
    if (repoPaths && !repoPaths.includes(p)) {
      problems.push({
        path: 'repos',
        field: String(i),
        message: `repo \`${p}\` is not connected (not in repos.yaml)`,
        ...locate(tree, ['repos', i], 'value'),
      });
    }
  });
  return problems;
}
