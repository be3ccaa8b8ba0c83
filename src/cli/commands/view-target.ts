import type { JigClient } from '../../client/http.js';
import { itemId, NoItemId } from '../item-of-cwd.js';
import { EXIT_FAIL } from '../output.js';

/**
 * The item a view or repo verb is about: the ID given, else the one of the cwd (item-of-cwd.ts:
 * JIG_WORK_ITEM_ID, else the item's worktree you are in). Null after saying why there is none (the
 * caller exits 2).
 */
export async function itemFor(c: JigClient, verb: string, given: string | undefined): Promise<string | null> {
  try {
    return await itemId(c, verb, given);
  } catch (err) {
    if (!(err instanceof NoItemId)) throw err;
    process.stderr.write(`jig: ${err.message}\n`);
    return null;
  }
}

/** For verbs whose server side is not built yet: says so, and fails (never a fake success). */
export function unavailable(verb: string, feature: string): number {
  process.stderr.write(`jig: ${verb} is not available in this build (it comes with ${feature})\n`);
  return EXIT_FAIL;
}
