import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { jigHome } from '../client/discover.js';

/**
 * What the cwd of `jig admin mcp` says about the caller: an agent CLI starts the MCP server in its
 * own cwd, so inside an item's worktree (`$JIG_HOME/run/worktrees/<id>/…`) the item is known.
 */
export function itemOfCwd(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | null {
  let root: string;
  let here: string;
  try {
    root = realpathSync(join(jigHome(env), 'run', 'worktrees'));
    here = realpathSync(cwd);
  } catch {
    return null;
  }
  const rel = relative(root, here);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep)[0] ?? null;
}

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
