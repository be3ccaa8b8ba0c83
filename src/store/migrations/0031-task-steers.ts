import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Issue 47: a resume may carry a note for one task (`--steer-task PATH=TEXT`). It waits here until
 * a launch of that task takes it; the item's own `steer` column stays the note for the next launch
 * of any task.
 */
export const taskSteers: Migration = {
  version: 31,
  name: 'task-steers',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('work_item_task_steers')
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('task_path', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('work_item_task_steers_pk', ['item_id', 'task_path'])
      .execute();
  },
};
