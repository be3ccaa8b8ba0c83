import { randomBytes, scrypt } from 'node:crypto';
import {
  DEFAULT_SCRYPT,
  formatPasswordHash,
  SCRYPT_KEY_BYTES,
  SCRYPT_SALT_BYTES,
  scryptMemory,
  type ScryptParams,
} from '../core/perimeter/password-format.js';

/**
 * The `$scrypt$…` string `access.yaml` stores. Hashed here, on the machine that runs `jig admin
 * password`, so the plain password never travels; the server checks it with runtime/auth/password.ts.
 */
export function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SCRYPT_SALT_BYTES);
  const { ln, r, p } = params;
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      SCRYPT_KEY_BYTES,
      { N: 2 ** ln, r, p, maxmem: scryptMemory(params) },
      (err, key) =>
        err
          ? reject(err)
          : resolve(
              formatPasswordHash({ ...params, salt: salt.toString('base64'), hash: key.toString('base64') }),
            ),
    ),
  );
}
