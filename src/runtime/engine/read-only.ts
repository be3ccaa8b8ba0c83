import { createHash } from 'node:crypto';
import { git } from '../git/git.js';

/**
 * What a `read_only` step must leave as it found it: HEAD, `git status --porcelain=v1 -z` and a hash
 * of `git diff HEAD`. Kept as one string, so the walk can persist it across a restart.
 */
export async function worktreeSnapshot(cwd: string): Promise<string> {
  const [head, status, diff] = await Promise.all([
    git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    git(cwd, ['status', '--porcelain=v1', '-z']),
    git(cwd, ['diff', 'HEAD']),
  ]);
  const h = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
  return `head=${head.stdout.trim()} status=${h(status.stdout)} diff=${h(diff.stdout)}`;
}
