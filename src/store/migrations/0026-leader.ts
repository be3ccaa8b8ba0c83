import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Which `jig serve` leads (store/leader.ts): the one running schedules, intake, notifications,
 * tracker updates, forge polls and wall clocks, shown in health and checked by the doctor. And
 * where each process answers, with a token valid while it runs: a serve forwards a request about
 * an item to the worker whose machine has its files (server/forward.ts).
 */
export const leader: Migration = {
  version: 26,
  name: 'leader',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('workers')
      .addColumn('leads', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('workers').addColumn('url', 'text').execute();
    await db.schema.alterTable('workers').addColumn('peer_token', 'text').execute();
  },
};
