import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** The merge request of each item and repository (issue 20), as the forge last answered. */
export const mergeRequests: Migration = {
  version: 17,
  name: 'merge-requests',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('merge_requests')
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('repo', 'text', (c) => c.notNull())
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('draft', 'integer', (c) => c.notNull())
      .addColumn('head', 'text', (c) => c.notNull())
      .addColumn('base', 'text', (c) => c.notNull())
      .addColumn('sha', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('merge_requests_pk', ['item_id', 'repo'])
      .execute();
  },
};
