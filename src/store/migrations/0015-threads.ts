import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Review threads, their comments, and reviews (issue 21). A thread is anchored to the commit it was
 * made on (`anchor_sha`) so its lines can be followed as the file changes; a review keeps the
 * commit it looked at, which is what `last_review` compares from.
 */
export const threads: Migration = {
  version: 15,
  name: 'threads',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('review_threads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('file_path', 'text')
      .addColumn('start_line', 'integer')
      .addColumn('end_line', 'integer')
      .addColumn('side', 'text')
      .addColumn('label', 'text')
      .addColumn('suggestion', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('anchor_sha', 'text')
      .addColumn('claim', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('review_threads_item').on('review_threads').column('item_id').execute();
    await db.schema
      .createTable('review_comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('thread_id', 'text', (c) => c.notNull())
      .addColumn('by', 'text', (c) => c.notNull())
      .addColumn('person', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('claim', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('review_comments_thread').on('review_comments').column('thread_id').execute();
    await db.schema
      .createTable('reviews')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('person', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('summary', 'text')
      .addColumn('gate', 'text')
      .addColumn('node', 'text')
      .addColumn('round', 'integer')
      .addColumn('sha', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reviews_item').on('reviews').column('item_id').execute();
  },
};
