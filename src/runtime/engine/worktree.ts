import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RepoEntry } from '../../contract/config/repos.js';
import { currentBranch, git } from '../git/git.js';

export type Prepared =
  | { ok: true; path: string; baseRef: string; baseBranch: string; created: boolean; copied: string[] }
  | { ok: false; kind: 'config' | 'infra'; reason: string };

async function gitConfig(repo: string, key: string): Promise<string> {
  const r = await git(repo, ['config', '--get', key]);
  return r.code === 0 ? r.stdout.trim() : '';
}

/**
 * Cuts the item's worktree on its branch (named at intake) from the base branch, pins the base
 * commit, and copies the repo's `local_files`. Safe to call again after an interrupted start: an
 * existing worktree or branch is reused, never recreated over the work in it.
 */
export async function prepareWorktree(
  repo: RepoEntry,
  item: { id: string; branch: string; base_branch: string | null },
  worktreesDir: string,
): Promise<Prepared> {
  if (!(await gitConfig(repo.path, 'user.name')) || !(await gitConfig(repo.path, 'user.email'))) {
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
  const path = join(worktreesDir, item.id);
  let created = false;
  if (!existsSync(path)) {
    mkdirSync(worktreesDir, { recursive: true });
    const hasBranch =
      (await git(repo.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${item.branch}`])).code === 0;
    const args = hasBranch
      ? ['worktree', 'add', path, item.branch]
      : ['worktree', 'add', '-b', item.branch, path, baseRef];
    const r = await git(repo.path, args);
    if (r.code !== 0)
      return { ok: false, kind: 'infra', reason: `git worktree add failed: ${r.stderr.trim()}` };
    created = true;
  }
  const copied: string[] = [];
  for (const rel of repo.local_files ?? []) {
    if (rel.startsWith('/') || rel.split('/').includes('..')) continue;
    const from = join(repo.path, rel);
    const to = join(path, rel);
    if (!existsSync(from) || !statSync(from).isFile() || existsSync(to)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    copied.push(rel);
  }
  return { ok: true, path, baseRef, baseBranch, created, copied };
}
