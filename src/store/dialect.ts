import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Whether a query runs on PostgreSQL: the few queries whose SQL differs (full-text search) ask
 * the connection itself, so no caller passes the store's kind along.
 */
export function onPostgres(db: Kysely<Database> | Transaction<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
