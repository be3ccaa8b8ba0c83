import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { writeFileAtomic } from './atomic-write.js';

/** 43 URL-safe characters (256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Creates the token file (0600) when it is missing, repairs its mode, and answers its value. */
export function ensureTokenFile(path: string, avoid?: string): string {
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
    if (value.length >= 32 && value !== avoid) return value;
  }
  let token = newToken();
  while (token === avoid) token = newToken();
  writeFileAtomic(path, `${token}\n`, 0o600);
  return token;
}

export function readToken(path: string): string | null {
  try {
    const value = readFileSync(path, 'utf8').trim();
    return value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

/** Constant-time comparison; hashing first makes the lengths equal so length leaks nothing either. */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/**
 * Replaces token files (0600) with new random tokens. The server rereads a token file when it
 * changes, so a caller with the old value is refused from its next request.
 */
export function rotateTokenFiles(paths: readonly string[]): void {
  for (const path of paths) writeFileAtomic(path, `${newToken()}\n`, 0o600);
}
