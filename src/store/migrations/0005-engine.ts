import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** The engine's state: where each item's walk is, and every task process it launched. */
export const engineState: Migration = {
  version: 5,
  name: 'engine_walk_and_sessions',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('work_items').addColumn('walk', 'text').execute();
    await db.schema.alterTable('work_items').addColumn('steer', 'text').execute();
    await db.schema.alterTable('work_items').addColumn('queued_at', 'text').execute();
    await db.schema
      .createTable('worker_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('work_item_id', 'text', (c) => c.notNull().references('work_items.id'))
      .addColumn('node', 'text', (c) => c.notNull())
      .addColumn('task_path', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('argv', 'text', (c) => c.notNull())
      .addColumn('cwd', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer')
      .addColumn('pid_start', 'text')
      .addColumn('log_path', 'text', (c) => c.notNull())
      .addColumn('result_path', 'text', (c) => c.notNull())
      .addColumn('exit_path', 'text', (c) => c.notNull())
      .addColumn('exit_code', 'integer')
      .addColumn('result', 'text')
      .addColumn('time_cap_s', 'integer')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('exited_at', 'text')
      .execute();
    await db.schema
      .createIndex('worker_sessions_item')
      .on('worker_sessions')
      .columns(['work_item_id', 'started_at'])
      .execute();
    await db.schema.createIndex('worker_sessions_status').on('worker_sessions').column('status').execute();
  },
};
