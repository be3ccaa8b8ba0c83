import { closeSync, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { kindOf, READ_FLAGS, type Refused } from './safe-read.js';

/**
 * A file Jig made itself at a path it chose (a session's log), in a folder the task it runs can
 * write: the task may have replaced it by a FIFO, a link to /dev/zero or a link to a file elsewhere.
 * It is opened without following a final link and without waiting for a FIFO's writer, and used
 * only when the file actually opened is a regular file. See docs/adr/0004-files-from-repositories.md.
 */

export type OpenedRegular = { ok: true; fd: number; stat: Stats } | Refused;

function refuse(reason: Refused['reason'], detail: string): Refused {
  return { ok: false, reason, detail };
}

function errno(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? '';
}

/** Opens `path` for reading if it is a regular file; on success the caller owns `fd` and closes it. */
export function openRegular(path: string): OpenedRegular {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', 'does not exist');
    // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
    if (code === 'ELOOP' || code === 'EMLINK')
      return refuse('not_regular', 'is a symbolic link, which Jig does not follow there');
    // A socket cannot be opened at all; some devices refuse a non-blocking open.
    if (code === 'ENXIO' || code === 'EAGAIN' || code === 'EWOULDBLOCK')
      return refuse('not_regular', 'is not a regular file');
    return refuse('unreadable', `cannot be read (${code || (e as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return { ok: true, fd, stat };
    closeSync(fd);
    return refuse('not_regular', `is ${kindOf(stat)}, not a regular file`);
  } catch (e) {
    closeSync(fd);
    return refuse('unreadable', `cannot be read (${errno(e) || (e as Error).message})`);
  }
}

/** Up to `length` bytes of an opened file from byte `start` (fewer when the file ends first). */
export function readAt(fd: number, start: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, length));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** The size of the regular file at `path`; 0 for anything else (lstat follows no link, waits on nothing). */
export function regularSize(path: string): number {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}
