import { scrypt, timingSafeEqual } from 'node:crypto';
import { parsePasswordHash, scryptMemory } from '../../core/perimeter/password-format.js';

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
