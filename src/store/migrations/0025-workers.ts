import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Scale-out (issue 27): the processes that walk items and their heartbeats, which process holds
 * each running item (with a generation bumped at every claim, the fence a returning worker checks)
 * and which process ran each session.
 */
export const workers: Migration = {
  version: 25,
  name: 'workers',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workers')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('home', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('takes_work', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .addColumn('stopped_at', 'text')
      .execute();
    await db.schema
      .createTable('item_claims')
      .addColumn('work_item_id', 'text', (c) => c.primaryKey())
      .addColumn('worker', 'text')
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('item_claims_worker').on('item_claims').column('worker').execute();
    await db.schema.alterTable('worker_sessions').addColumn('worker', 'text').execute();
  },
};
