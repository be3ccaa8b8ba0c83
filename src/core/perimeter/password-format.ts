import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../contract/auth.js';

/**
 * How `access.yaml` stores a password: a PHC-style string that carries its own scrypt parameters,
 * `$scrypt$ln=15,r=8,p=1$<salt base64>$<hash base64>`, so the cost can rise later without
 * breaking hashes already written. Pure: the hashing itself (node:crypto) lives in the layers that
 * may use Node, the CLI's client and the server's runtime; both read and write this one format.
 */
export interface ScryptParams {
  /** log2 of N, the CPU/memory cost. */
  ln: number;
  r: number;
  p: number;
}

export interface PasswordHash extends ScryptParams {
  salt: string;
  hash: string;
}

/** 2^15 × 8 × 128 bytes = 32 MiB and about 0.1 s per check: slow for guessing, fine for a login. */
export const DEFAULT_SCRYPT: ScryptParams = { ln: 15, r: 8, p: 1 };
export const SCRYPT_KEY_BYTES = 32;
export const SCRYPT_SALT_BYTES = 16;

/** Bounds that keep a hand-edited string from asking for absurd memory or time. */
const LIMITS = { ln: [10, 20], r: [1, 32], p: [1, 16] } as const;

/** Why a password cannot be used, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `the password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `the password may have at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

/** An upper bound of scrypt's working memory for these parameters, to pass as Node's `maxmem`. */
export function scryptMemory(p: ScryptParams): number {
  return 128 * 2 ** p.ln * p.r * (p.p + 1);
}

export function formatPasswordHash(h: PasswordHash): string {
  return `$scrypt$ln=${h.ln},r=${h.r},p=${h.p}$${h.salt}$${h.hash}`;
}

const B64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses a stored hash; null when it is not one this format can check. */
export function parsePasswordHash(text: string): PasswordHash | null {
  const m = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([^$]+)\$([^$]+)$/.exec(text.trim());
  if (!m) return null;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const salt = m[4]!;
  const hash = m[5]!;
  if (ln < LIMITS.ln[0] || ln > LIMITS.ln[1] || r < LIMITS.r[0] || r > LIMITS.r[1]) return null;
  if (p < LIMITS.p[0] || p > LIMITS.p[1]) return null;
  if (!B64.test(salt) || !B64.test(hash)) return null;
  return { ln, r, p, salt, hash };
}
