import { git } from '../git/git.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ItemRecord } from '../../store/work-items.js';

/** One selected member of a workspace item, as a fanned-out run needs it. */
export interface MemberRun {
  name: string;
  repo: RepoEntry;
  /** The member's worktree: where its runs start. */
  cwd: string;
  /** What its rebase and merge request are based on. */
  baseBranch: string;
  /** The commit its branch was cut from: it changed when its branch has commits past this. */
  baseRef: string;
}

/**
 * The members a fanned-out (`scope: each_repository`) task runs for, in the order selected, or why
 * they cannot run (a member disconnected since the start, a worktree not cut): the step refuses it.
 */
export function memberRuns(rec: ItemRecord, find: (path: string) => RepoEntry | null): MemberRun[] | string {
  const out: MemberRun[] = [];
  for (const m of rec.workspace?.members ?? []) {
    const repo = find(m.repo_path);
    if (!repo) return `member ${m.name}: repo ${m.repo_path} is no longer connected`;
    if (m.worktree_path === null || m.base_branch === null || m.base_ref === null)
      return `member ${m.name}: its worktree was not cut`;
    out.push({ name: m.name, repo, cwd: m.worktree_path, baseBranch: m.base_branch, baseRef: m.base_ref });
  }
  return out;
}

/** How many commits `head` has past `baseRef` in a repository or worktree; null when git cannot say. */
export async function commitsPast(dir: string, baseRef: string, head = 'HEAD'): Promise<number | null> {
  const r = await git(dir, ['rev-list', '--count', `${baseRef}..${head}`]);
  const n = Number(r.stdout.trim());
  return r.code === 0 && Number.isInteger(n) ? n : null;
}

/**
 * Whether a worktree's branch has commits past the commit it was cut from; when git cannot say it
 * counts as changed, so a step that checks changes runs rather than being skipped.
 */
export async function changedSince(worktree: string, baseRef: string | null): Promise<boolean> {
  if (baseRef === null) return true;
  const n = await commitsPast(worktree, baseRef);
  return n === null || n > 0;
}
