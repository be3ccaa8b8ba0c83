import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Item drafts (spec drafts.md "Item drafts", issue 17): one per work item, the op list not yet
 * applied to the item's own chain, as JSON; `base_seq` is the item's latest event number when the
 * draft was created and is kept across writes.
 */
export const itemDrafts: Migration = {
  version: 11,
  name: 'item-drafts',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('item_drafts')
      .addColumn('work_item_id', 'text', (c) => c.primaryKey())
      .addColumn('ops', 'text', (c) => c.notNull())
      .addColumn('base_seq', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
