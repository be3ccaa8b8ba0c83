import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import {
  DEFAULT_SCRYPT,
  formatPasswordHash,
  parsePasswordHash,
  SCRYPT_KEY_BYTES,
  SCRYPT_SALT_BYTES,
  scryptMemory,
} from '../../core/perimeter/password-format.js';

function derive(password: string, salt: Buffer, keylen: number, ln: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, { N: 2 ** ln, r, p, maxmem: scryptMemory({ ln, r, p }) }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * Checks a password against the stored `$scrypt$…` string, in constant time. A stored string this
 * format cannot read checks nothing (false), so a mangled access.yaml locks logins rather than
 * opening them. scrypt runs on libuv's thread pool, off the event loop.
 */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const h = parsePasswordHash(stored);
  if (!h) return false;
  const expected = Buffer.from(h.hash, 'base64');
  if (expected.length < 16) return false;
  const got = await derive(password, Buffer.from(h.salt, 'base64'), expected.length, h.ln, h.r, h.p);
  return timingSafeEqual(got, expected);
}

/**
 * The `$scrypt$…` string for a password set from Settings › Access (the CLI hashes on its own
 * machine, client/password-hash.ts; the layers keep the two apart). Off the event loop, as checks are.
 */
export async function hashPasswordHere(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT_SALT_BYTES);
  const { ln, r, p } = DEFAULT_SCRYPT;
  const key = await derive(password, salt, SCRYPT_KEY_BYTES, ln, r, p);
  return formatPasswordHash({
    ...DEFAULT_SCRYPT,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  });
}
