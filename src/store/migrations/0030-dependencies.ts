import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Issue 46: an item may come after others (`after`). One row per edge; the dependents of an item
 * are found by `dependency_id`, which a completion, a cancel and an abandon look up. `position`
 * keeps the order they were named in (one write names them all at one instant).
 */
export const dependencies: Migration = {
  version: 30,
  name: 'dependencies',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('work_item_dependencies')
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('dependency_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('work_item_dependencies_pk', ['item_id', 'dependency_id'])
      .execute();
    await db.schema
      .createIndex('work_item_dependencies_dependency')
      .on('work_item_dependencies')
      .column('dependency_id')
      .execute();
  },
};
