import type { JigClient } from '../client/http.js';
import { worktreeItem } from '../client/worktree-item.js';

/*
 * The work item a command run without an ID is about: inside an item's task the engine sets
 * JIG_WORK_ITEM_ID; elsewhere the cwd may be an item's worktree (client/worktree-item.ts).
 */

/** Where an inferred ID came from, for messages. */
export type ItemSource = 'argument' | 'JIG_WORK_ITEM_ID' | 'worktree';

/** The item of the cwd (or of the worker's task), or null when there is none. */
export async function itemOfCwd(
  c: JigClient,
  cwd = process.cwd(),
): Promise<{ id: string; source: ItemSource } | null> {
  const worker = process.env.JIG_WORK_ITEM_ID?.trim();
  if (worker) return { id: worker, source: 'JIG_WORK_ITEM_ID' };
  const id = await worktreeItem(c, cwd);
  return id === null ? null : { id, source: 'worktree' };
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
