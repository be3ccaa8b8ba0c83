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
  const baseBranch = item.base_branch ?? (await currentBranch(repo.path)) ?? 'HEAD';
  const base = await git(repo.path, ['rev-parse', '--verify', '--quiet', `${baseBranch}^{commit}`]);
  if (base.code !== 0) {
    return { ok: false, kind: 'config', reason: `base branch ${baseBranch} does not exist in ${repo.path}` };
  }
  const baseRef = base.stdout.trim();
  const path = at;
  let created = false;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const r = await inRepoQueue(repo.path, async () => {
      const hasBranch =
        (await git(repo.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${item.branch}`])).code === 0;
      const args = hasBranch
        ? ['worktree', 'add', path, item.branch]
        : ['worktree', 'add', '-b', item.branch, path, baseRef];
      return git(repo.path, args);
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
