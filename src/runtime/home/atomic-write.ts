import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that a reader sees either the old text or the new, never half of it:
 * temp file in the same folder, fsync, rename over, fsync the folder. `durable: false` leaves out
 * the two fsyncs, for files Jig derives again at every start (a crash may lose the new text, never
 * leave half of it): on a fresh home they were most of what writing them cost.
 */
export function writeFileAtomic(
  path: string,
  data: string | Buffer,
  mode = 0o644,
  { durable = true }: { durable?: boolean } = {},
): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', mode);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) syncDir(dir);
}

/** Makes a folder's entries (a rename, a link, a removal in it) durable. */
export function syncDir(dir: string): void {
  try {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  }
}
