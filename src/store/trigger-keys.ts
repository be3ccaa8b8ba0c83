import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Queries of `trigger_keys` (migration 8): which item a trigger's `Idempotency-Key` filed. */

type Db = Kysely<Database> | Transaction<Database>;

export interface TriggerKey {
  key: string;
  request_sha256: string;
  work_item_id: string;
  created_at: string;
}

/** The key's row if it was recorded at or after `since` (an older one has expired). */
export async function findTriggerKey(db: Db, key: string, since: string): Promise<TriggerKey | null> {
  const row = await db
    .selectFrom('trigger_keys')
    .selectAll()
    .where('key', '=', key)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row ?? null;
}

/** Records the key for the item just filed, replacing an expired row of the same key. */
export async function recordTriggerKey(db: Db, row: TriggerKey, expiredBefore: string): Promise<void> {
  await db.deleteFrom('trigger_keys').where('created_at', '<', expiredBefore).execute();
  await db.insertInto('trigger_keys').values(row).execute();
}
