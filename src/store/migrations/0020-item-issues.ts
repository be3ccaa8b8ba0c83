import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The tracker issues an item implements (issue 23): one row per (item, tracker, issue), indexed by
 * the issue so auto-intake asks "is this one already an item?" in one lookup, and with what became
 * of the issue when the item ended (`open`, `closed`, `left_open`) so a close cut off by a restart
 * is finished at the next start.
 */
export const itemIssues: Migration = {
  version: 20,
  name: 'item-issues',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('item_issues')
      .addColumn('work_item_id', 'text', (c) => c.notNull())
      .addColumn('tracker', 'text', (c) => c.notNull())
      .addColumn('issue_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('priority', 'integer')
      .addColumn('how', 'text', (c) => c.notNull())
      .addColumn('closing', 'text', (c) => c.notNull().defaultTo('open'))
      .addPrimaryKeyConstraint('item_issues_pk', ['work_item_id', 'tracker', 'issue_id'])
      .execute();
    await db.schema
      .createIndex('item_issues_by_issue')
      .on('item_issues')
      .columns(['tracker', 'issue_id'])
      .execute();
  },
};
