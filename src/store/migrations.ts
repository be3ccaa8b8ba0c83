import { sql, type Kysely } from 'kysely';

/**
 * Numbered, forward-only migrations. Never edit one that has shipped: add the next number.
 * SQL stays portable (no SQLite-only types) so the PostgreSQL dialect can run the same list.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'meta',
    async up(db) {
      await db.schema
        .createTable('jig_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO jig_meta (key, value) VALUES ('created_at', ${new Date().toISOString()})`.execute(
        db,
      );
    },
  },
];
