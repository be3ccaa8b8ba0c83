import { existsSync, mkdirSync } from 'node:fs';
import { inRepoQueue } from '../git/repo-queue.js';
import { dirname, join } from 'node:path';
import type { RepoEntry } from '../../contract/config/repos.js';
import { createInside } from '../fs/create-inside.js';
import { readInside } from '../fs/safe-read.js';
import { currentBranch, git } from '../git/git.js';

/** A `local_files` entry that was not copied, and why (`reason` is stable, `detail` a sentence). */
export interface SkippedLocalFile {
  path: string;
  reason: string;
  detail: string;
}

export type Prepared =
  | {
      ok: true;
      path: string;
      baseRef: string;
      baseBranch: string;
      created: boolean;
      copied: string[];
      skipped: SkippedLocalFile[];
    }
  | { ok: false; kind: 'config' | 'infra'; reason: string };

/** The largest local file copied into a worktree (docs/config/repos.md). */
export const LOCAL_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Copies one `local_files` entry from the repo into the worktree by the attachment rules (a regular
 * file inside the repo, one link, outside `.git`, under the cap), creating it exclusively so that a
 * link already at the destination is never written through. A regular file already there (an
 * interrupted start copied it) is left as it is.
 */
function copyLocalFile(repo: string, worktree: string, rel: string): 'copied' | 'present' | SkippedLocalFile {
  const src = readInside(repo, rel, {
    maxBytes: LOCAL_FILE_MAX_BYTES,
    refuseHardLinks: true,
    refuseGitInternals: true,
  });
  if (!src.ok) return { path: rel, reason: src.reason, detail: `${rel} ${src.detail}` };
  const made = createInside(worktree, rel, src.bytes, src.stat.mode);
  if (made.ok) return 'copied';
  if (made.reason === 'exists') return 'present';
  return { path: rel, reason: `destination_${made.reason}`, detail: `${rel}: ${made.detail}` };
}

/** Whether git has both a user.name and a user.email for `repo` (one git process for the two). */
async function hasIdentity(repo: string): Promise<boolean> {
  const r = await git(repo, ['config', '--get-regexp', '^user\\.(name|email)$']);
  if (r.code !== 0) return false;
  // The last value of each key wins, as `git config --get` reads it; an empty one is none.
  const last = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const m = /^user\.(name|email)(?: (.*))?$/.exec(line);
    if (m?.[1]) last.set(m[1], (m[2] ?? '').trim());
  }
  return Boolean(last.get('name')) && Boolean(last.get('email'));
}

/**
 * The base branch and its commit: the one named, else the branch the repository has checked out
 * (`HEAD` when detached), both from one git process. `ref` is null when there is no such commit.
 */
async function baseOf(repo: string, named: string | null): Promise<{ branch: string; ref: string | null }> {
  if (named === null) {
    const r = await git(repo, ['rev-parse', 'HEAD^{commit}', '--abbrev-ref', 'HEAD']);
    const [ref, branch] = r.stdout.trim().split('\n');
    if (r.code === 0 && ref && branch) return { branch, ref };
    // No commit yet on the checked-out branch: named in the refusal as it is.
    return { branch: (await currentBranch(repo)) ?? 'HEAD', ref: null };
  }
  const r = await git(repo, ['rev-parse', '--verify', '--quiet', `${named}^{commit}`]);
  return { branch: named, ref: r.code === 0 ? r.stdout.trim() : null };
}

/**
 * Cuts the item's worktree on its branch (named at intake) from the base branch, pins the base
 * commit, and copies the repo's `local_files`. Safe to call again after an interrupted start: an
 * existing worktree or branch is reused, never recreated over the work in it. A workspace member's
 * worktree is cut the same way in its own repository, at `at` (member-worktrees.ts).
 */
export async function prepareWorktree(
  repo: RepoEntry,
  item: { id: string; branch: string; base_branch: string | null },
  worktreesDir: string,
  at: string = join(worktreesDir, item.id),
): Promise<Prepared> {
  if (!(await hasIdentity(repo.path))) {
    return {
      ok: false,
      kind: 'config',
      reason: `git has no user.name or user.email for ${repo.path}; set them (git config --global user.name "…" and user.email "…") so tasks can commit`,
    };
  }
  const base = await baseOf(repo.path, item.base_branch);
  if (base.ref === null) {
    return { ok: false, kind: 'config', reason: `base branch ${base.branch} does not exist in ${repo.path}` };
  }
  const { branch: baseBranch, ref: baseRef } = base;
  const path = at;
  let created = false;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    // A new branch in one process; a branch an earlier start cut (its worktree since removed) is
    // looked for only when git refuses to create it again.
    const r = await inRepoQueue(repo.path, async () => {
      const made = await git(repo.path, ['worktree', 'add', '-b', item.branch, path, baseRef]);
      if (made.code === 0) return made;
      const hasBranch =
        (await git(repo.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${item.branch}`])).code === 0;
      return hasBranch ? git(repo.path, ['worktree', 'add', path, item.branch]) : made;
    });
    if (r.code !== 0)
      return { ok: false, kind: 'infra', reason: `git worktree add failed: ${r.stderr.trim()}` };
    created = true;
  }
  const copied: string[] = [];
  const skipped: SkippedLocalFile[] = [];
  for (const rel of repo.local_files ?? []) {
    const r = copyLocalFile(repo.path, path, rel);
    if (r === 'copied') copied.push(rel);
    else if (r !== 'present') skipped.push(r);
  }
  return { ok: true, path, baseRef, baseBranch, created, copied, skipped };
}
