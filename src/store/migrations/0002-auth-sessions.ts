import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** Browser login sessions, kept server-side (issue: the perimeter). Text times: portable SQL. */
export const authSessions: Migration = {
  version: 2,
  name: 'auth_sessions',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('auth_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('password_tag', 'text', (c) => c.notNull())
      .addColumn('peer', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('auth_sessions_expires_at')
      .on('auth_sessions')
      .column('expires_at')
      .execute();
  },
};
