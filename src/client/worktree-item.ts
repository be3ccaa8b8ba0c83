import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { ApiError, type JigClient } from './http.js';
import { getItem } from './items.js';

/*
 * The work item whose worktree a cwd is in. The server cuts each item's worktree as a linked git
 * worktree named after the item and checked out on the item's branch. A client does not read the
 * server's files (the server may keep another home, or run on another machine), so it takes the
 * worktree's directory name as a candidate and asks the API whether that item works on the branch
 * checked out here. The CLI and the MCP server both infer an item this way.
 */

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The linked worktree the cwd is in, with its checked-out branch; null in a main checkout or outside git. */
export function linkedWorktree(cwd = process.cwd()): { top: string; branch: string } | null {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  const gitDir = git(cwd, ['rev-parse', '--path-format=absolute', '--git-dir']);
  const common = git(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const branch = git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (!top || !gitDir || !common || !branch || resolve(gitDir) === resolve(common)) return null;
  return { top, branch };
}

/** The id of the item whose worktree `cwd` is in, or null. */
export async function worktreeItem(c: JigClient, cwd = process.cwd()): Promise<string | null> {
  const wt = linkedWorktree(cwd);
  if (!wt) return null;
  try {
    const item = await getItem(c, basename(wt.top));
    return item.branch === wt.branch ? item.id : null;
  } catch (err) {
    // Not an item's worktree (404), or a name the route refuses (422): nothing to infer.
    if (err instanceof ApiError && err.status < 500) return null;
    throw err;
  }
}
