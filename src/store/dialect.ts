import { PostgresAdapter, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Whether a query runs on PostgreSQL: the few queries whose SQL differs (full-text search) ask
 * the connection itself, so no caller passes the store's kind along.
 */
export function onPostgres(db: Kysely<Database> | Transaction<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The text a store keeps of `s`: PostgreSQL's text cannot hold U+0000, so postgres.ts sends
 * U+FFFD in its place; SQLite keeps it. What a write answers is then what a read will.
 */
export function storedText(db: Kysely<Database> | Transaction<Database>, s: string): string {
  return onPostgres(db) ? postgresText(s) : s;
}

/** `s` as PostgreSQL's text can hold it: U+FFFD for each U+0000. */
export const postgresText = (s: string): string => (s.includes('\0') ? s.replaceAll('\0', '\uFFFD') : s);

/**
 * A JSON column as text, for LIKE: jsonb on PostgreSQL (migration 32) has no LIKE, and its text
 * form puts a space after each `:` and `,`, so patterns match one quoted name or value only.
 */
export const jsonText = (column: string): RawBuilder<string> => sql<string>`cast(${sql.ref(column)} as text)`;
