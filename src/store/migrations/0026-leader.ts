import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Which `jig serve` leads (store/leader.ts): the one running schedules, intake, notifications,
 * tracker updates, forge polls and wall clocks, shown in health and checked by the doctor.
 */
export const leader: Migration = {
  version: 26,
  name: 'leader',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('workers')
      .addColumn('leads', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
