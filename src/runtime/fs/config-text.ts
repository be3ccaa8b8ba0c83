import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { kindOf } from './safe-read.js';

/** No config file Jig reads comes near this; a bigger one is a mistake, not a config. */
export const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

// A link is followed (a config kept in a dotfiles repository is a link), but the open never waits
// for a FIFO's writer and never makes a terminal the process's own.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const CHUNK = 64 * 1024;

export type TextRead = { ok: true; text: string } | { ok: false; missing: boolean; reason: string };

/**
 * One of Jig's own text files (a config file, a provider definition): a task runs with the user's
 * rights and can put a FIFO or a link to /dev/zero where Jig expects one, which a plain
 * `readFileSync` waits on forever or reads until memory runs out. Only a regular file is read, and
 * at most `maxBytes` of it. See docs/adr/0004-files-from-repositories.md.
 */
export function readConfigFile(path: string, maxBytes = CONFIG_MAX_BYTES): TextRead {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { ok: false, missing: true, reason: 'does not exist' };
    if (code === 'ENXIO' || code === 'EAGAIN')
      return { ok: false, missing: false, reason: 'is not a regular file' };
    return { ok: false, missing: false, reason: `cannot be read (${code || (e as Error).message})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, missing: false, reason: `is ${kindOf(st)}, not a regular file` };
    // Read to the end, not to the size fstat gave: the size of a file being written can change.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) return { ok: false, missing: false, reason: `is larger than ${maxBytes} bytes` };
      chunks.push(chunk.subarray(0, n));
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, missing: false, reason: `cannot be read (${code ?? (e as Error).message})` };
  } finally {
    closeSync(fd);
  }
}
