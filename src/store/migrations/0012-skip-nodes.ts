import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Nodes an item was filed to pass without running (`skip_nodes` of a create, issue 18): a JSON
 * array of node ids, `[]` for the items filed before.
 */
export const skipNodes: Migration = {
  version: 12,
  name: 'skip-nodes',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('work_items')
      .addColumn('skip_nodes', 'text', (col) => col.notNull().defaultTo('[]'))
      .execute();
  },
};
