import { execFileSync } from 'node:child_process';
import { dirname, sep } from 'node:path';

/**
 * The repository the cwd belongs to: its main checkout, also from inside one of its worktrees
 * (an item's worktree files new work against the repository it was cut from).
 */
export function repoOfCwd(cwd = process.cwd()): string | null {
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    // A bare or unusual layout has no `.git` directory to step out of: use the toplevel then.
    if (common.endsWith(`${sep}.git`)) return dirname(common);
    return execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}
