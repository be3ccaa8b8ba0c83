import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Analytics reads a date range (issue 24): the sessions started in it, and the node events in it.
 * Without these, each read scans both tables whole, on the one connection every request shares.
 */
export const rangeIndexes: Migration = {
  version: 23,
  name: 'range-indexes',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('worker_sessions_by_start')
      .on('worker_sessions')
      .column('started_at')
      .execute();
    await db.schema.createIndex('events_by_type_at').on('events').columns(['type', 'at']).execute();
  },
};
