import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { deleteSession, findSession, insertSession, pruneSessions } from '../../store/auth-sessions.js';
import type { Database } from '../../store/schema.js';

export type SessionState = 'valid' | 'expired' | 'invalid';

const DAY_MS = 24 * 60 * 60 * 1000;

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A short fingerprint of the stored password hash; sessions made under another password are void. */
export function passwordTag(passwordHash: string): string {
  return sha256(passwordHash).slice(0, 32);
}

/**
 * Browser sessions, kept server-side so a logout or a password change ends them for real. Only
 * the SHA-256 of each cookie is stored: a copy of the database opens no session. Lookup is by that
 * hash (an index seek), so the comparison leaks nothing useful about other sessions' values.
 */
export class SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(tag: string, peer: string, days: number): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = new Date(now + days * DAY_MS);
    // Expired rows go whenever a new one comes, so the table stays as small as the live logins.
    await pruneSessions(this.db, new Date(now).toISOString());
    await insertSession(this.db, {
      token_hash: sha256(token),
      password_tag: tag,
      peer,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return { token, expiresAt };
  }

  /** `tag` is the current password's; null when no password is set (then no session is valid). */
  async check(token: string, tag: string | null): Promise<SessionState> {
    const row = await findSession(this.db, sha256(token));
    if (!row || tag === null || row.password_tag !== tag) return 'invalid';
    return row.expires_at <= new Date(this.now()).toISOString() ? 'expired' : 'valid';
  }

  async remove(token: string): Promise<void> {
    await deleteSession(this.db, sha256(token));
  }
}
