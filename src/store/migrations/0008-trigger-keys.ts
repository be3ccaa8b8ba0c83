import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * `Idempotency-Key` of `POST /api/triggers` (issue 14): a sender that retries after a timeout gets
 * the item its first try filed. One row per key, with a digest of the request it came with so a
 * key reused for another request is told apart; rows older than a day are pruned as keys arrive.
 */
export const triggerKeys: Migration = {
  version: 8,
  name: 'trigger_keys',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('trigger_keys')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('request_sha256', 'text', (c) => c.notNull())
      .addColumn('work_item_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trigger_keys_created').on('trigger_keys').column('created_at').execute();
  },
};
