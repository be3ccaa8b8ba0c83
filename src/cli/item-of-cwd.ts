import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { ApiError, type JigClient } from '../client/http.js';
import { getItem } from '../client/items.js';

/*
 * The work item a command run without an ID is about. Inside an item's task the engine sets
 * JIG_WORK_ITEM_ID. Elsewhere the cwd may be an item's worktree: the server cuts each one as a linked
 * git worktree named after the item and checked out on the item's branch. The CLI does not read the
 * server's files (the server may keep another home, or run on another machine), so it takes the
 * worktree's directory name as a candidate and asks the API whether that item works on the branch
 * checked out here.
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

/** Where an inferred ID came from, for messages. */
export type ItemSource = 'argument' | 'JIG_WORK_ITEM_ID' | 'worktree';

/** The item of the cwd (or of the worker's task), or null when there is none. */
export async function itemOfCwd(
  c: JigClient,
  cwd = process.cwd(),
): Promise<{ id: string; source: ItemSource } | null> {
  const worker = process.env.JIG_WORK_ITEM_ID?.trim();
  if (worker) return { id: worker, source: 'JIG_WORK_ITEM_ID' };
  const wt = linkedWorktree(cwd);
  if (!wt) return null;
  const candidate = basename(wt.top);
  try {
    const item = await getItem(c, candidate);
    return item.branch === wt.branch ? { id: item.id, source: 'worktree' } : null;
  } catch (err) {
    // Not an item's worktree (404), or a name the route refuses (422): nothing to infer.
    if (err instanceof ApiError && err.status < 500) return null;
    throw err;
  }
}

/** A usage error: no ID given and none to infer. */
export class NoItemId extends Error {
  constructor(verb: string) {
    super(`${verb} needs a work item ID (or run it inside an item's worktree)`);
    this.name = 'NoItemId';
  }
}

/** The ID given on the command line, else the item of the cwd; NoItemId when neither. */
export async function itemId(c: JigClient, verb: string, given: string | undefined): Promise<string> {
  if (given) return given;
  const found = await itemOfCwd(c);
  if (!found) throw new NoItemId(verb);
  return found.id;
}
