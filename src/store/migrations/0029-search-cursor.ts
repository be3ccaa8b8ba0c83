import { sql, type Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Issue 43. On SQLite the search index takes events in after their commit, in batches, and keeps
 * the last seq it took in (`search:indexed_seq` in jig_meta) so a start finishes what a stop or a
 * crash left. Every event up to now was indexed in the transaction that wrote it.
 */
export const searchCursor: Migration = {
  version: 29,
  name: 'search-cursor',
  async up(db: Kysely<unknown>) {
    await sql`INSERT INTO jig_meta (key, value)
      SELECT 'search:indexed_seq', CAST(COALESCE(MAX(seq), 0) AS TEXT) FROM events`.execute(db);
  },
};
