import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Review (issue 21): `item_attempts` records the commit a node's run left the worktree at (kept by
 * a ref `refs/jig/items/<id>/attempt-<n>`), so two attempts can be compared after the branch moved
 * on; `review_viewed` holds a person's viewed marks with the blob each file had when marked, so a
 * later change clears the mark without anyone tracking it.
 */
export const review: Migration = {
  version: 14,
  name: 'review',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('item_attempts')
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('node', 'text', (c) => c.notNull())
      .addColumn('run', 'integer', (c) => c.notNull())
      .addColumn('sha', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('item_attempts_pk', ['item_id', 'n'])
      .execute();
    await db.schema
      .createTable('review_viewed')
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('person', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('blob', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('review_viewed_pk', ['item_id', 'person', 'path'])
      .execute();
  },
};
