import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The last minute each schedule entry fired (issue: schedules). One row per entry identity, so a
 * restart within the same minute does not file the same schedule twice. `minute` counts whole
 * minutes since the Unix epoch (UTC); integers compare and prune simply on both SQL dialects.
 */
export const scheduleFirings: Migration = {
  version: 4,
  name: 'schedule_firings',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('schedule_firings')
      .addColumn('entry_key', 'text', (c) => c.primaryKey())
      .addColumn('minute', 'integer', (c) => c.notNull())
      .addColumn('fired_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('schedule_firings_minute').on('schedule_firings').column('minute').execute();
  },
};
