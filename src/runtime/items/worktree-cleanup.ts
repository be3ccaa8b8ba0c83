import { existsSync, rmSync } from 'node:fs';
import { git } from '../git/git.js';
import { inRepoQueue } from '../git/repo-queue.js';

/** Removes the item's worktree (if it has one) and prunes git's record of it; keeps the branch. */
export async function removeWorktree(repo: string, worktree: string | null): Promise<boolean> {
  if (!worktree || !existsSync(worktree)) return false;
  // In the repository's queue: a remove or prune beside another item's add breaks that add.
  await inRepoQueue(repo, async () => {
    const r = await git(repo, ['worktree', 'remove', '--force', worktree]);
    if (r.code !== 0) rmSync(worktree, { recursive: true, force: true });
    await git(repo, ['worktree', 'prune']);
  });
  return true;
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0;
}

/** Deletes the item's branch; answers whether there was one. */
export async function deleteBranch(repo: string, branch: string): Promise<boolean> {
  if (!existsSync(repo) || !(await branchExists(repo, branch))) return false;
  return (await git(repo, ['branch', '-D', branch])).code === 0;
}
