import type { Kysely, Transaction } from 'kysely';
import type { Walk } from '../contract/walk.js';
import type { Database } from './schema.js';
import { getItem, updateItem } from './work-items.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Reads an item's walk, changes it and writes it back with `updated_at` (inside the caller's
 * transaction when given one, else in one of its own). Refuses, naming the item, when it has no
 * walk that can be read: only a started item's walk can change.
 */
export async function patchWalk(db: Db, id: string, fn: (w: Walk) => Walk, at: string): Promise<Walk> {
  // Read and write in one transaction, so a move made meanwhile (a pause's hold, a park) is not
  // overwritten by a walk read before it.
  if (!db.isTransaction) return db.transaction().execute((trx) => patchWalk(trx, id, fn, at));
  const rec = await getItem(db, id);
  if (!rec?.walk) {
    const why =
      rec === null
        ? 'it is not in the store'
        : rec.state_error !== null
          ? `its saved state cannot be read: ${rec.state_error}`
          : 'it has not started';
    throw new Error(`cannot change the walk of work item ${id}: ${why}`);
  }
  const next = fn(rec.walk);
  await updateItem(db, id, { walk: next, updated_at: at });
  return next;
}
