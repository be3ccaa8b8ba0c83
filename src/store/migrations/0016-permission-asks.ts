import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** Permission asks (issue 21): an agent's tool call waiting for a person's allow or deny. */
export const permissionAsks: Migration = {
  version: 16,
  name: 'permission-asks',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('permission_asks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The order asks were made in (times can tie; ids are random).
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('session', 'text')
      .addColumn('tool_name', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('tool_use_id', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('permission_asks_item').on('permission_asks').column('item_id').execute();
    await db.schema.createIndex('permission_asks_state').on('permission_asks').column('state').execute();
  },
};
