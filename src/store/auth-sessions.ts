import type { Kysely } from 'kysely';
import type { AuthSessionsTable, Database } from './schema.js';

/** Queries of `auth_sessions` (migration 2): browser logins, kept as the SHA-256 of each cookie. */

type Db = Kysely<Database>;

/** Forgets sessions that expired at or before `nowIso`. */
export async function pruneSessions(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('expires_at', '<=', nowIso).execute();
}

export async function insertSession(db: Db, row: AuthSessionsTable): Promise<void> {
  await db.insertInto('auth_sessions').values(row).execute();
}

/** The session a cookie's hash names, or null: an index seek by the hash, never a scan. */
export async function findSession(
  db: Db,
  tokenHash: string,
): Promise<Pick<AuthSessionsTable, 'password_tag' | 'expires_at'> | null> {
  const row = await db
    .selectFrom('auth_sessions')
    .select(['password_tag', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('token_hash', '=', tokenHash).execute();
}
