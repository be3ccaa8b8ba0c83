import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The board's default listing is "not archived, newest first": this index answers both its page
 * (a range scan in order) and its count without reading the table.
 */
export const listIndex: Migration = {
  version: 6,
  name: 'work_items_list_index',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('work_items_archived_created')
      .on('work_items')
      .columns(['archived_at', 'created_at', 'id'])
      .execute();
  },
};
