import { sql, type Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The event log's `seq` on PostgreSQL (issue 27): a sequence is not transactional, so a unit rolled
 * back to its savepoint would leave a gap, and two writers could commit out of seq order. One
 * counter row, bumped in the writing transaction, is rolled back with it and held until its commit.
 * SQLite's AUTOINCREMENT already behaves so under its single writer: nothing to add there.
 */
export const eventSeq: Migration = {
  version: 24,
  name: 'event-seq',
  async up(db: Kysely<unknown>, ctx) {
    if (ctx.dialect !== 'postgres') return;
    await sql`CREATE TABLE event_seq (id integer PRIMARY KEY, last bigint NOT NULL)`.execute(db);
    await sql`INSERT INTO event_seq (id, last) SELECT 1, coalesce(max(seq), 0) FROM events`.execute(db);
  },
};
