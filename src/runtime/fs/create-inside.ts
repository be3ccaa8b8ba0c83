import {
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { badRelative, isInside } from './safe-read.js';

export type Created =
  | { ok: true }
  | {
      ok: false;
      /** `exists`: a regular file is already there (an interrupted start that copied it); `occupied`: anything else. */
      reason: 'bad_path' | 'exists' | 'occupied' | 'link_outside' | 'not_a_folder' | 'failed';
      detail: string;
    };

// O_EXCL with O_CREAT fails on anything already at the path, a dangling link included, so a link
// placed at the destination is never written through.
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function errno(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? '';
}

/**
 * Makes the folders of `relDir` under `rootReal` one at a time. A link on the way is followed only
 * while it stays inside the root, so `mkdir -p` can never create a folder somewhere else.
 */
function folderInside(
  rootReal: string,
  relDir: string,
): { ok: true; dir: string } | Exclude<Created, { ok: true }> {
  let cur = rootReal;
  for (const part of relDir.split('/').filter((p) => p !== '' && p !== '.')) {
    const next = join(cur, part);
    let st;
    try {
      st = lstatSync(next);
    } catch (e) {
      if (errno(e) !== 'ENOENT')
        return { ok: false, reason: 'failed', detail: `cannot make ${next}: ${errno(e)}` };
      mkdirSync(next);
      cur = next;
      continue;
    }
    if (st.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync(next);
      } catch {
        return { ok: false, reason: 'not_a_folder', detail: `${next} is a dangling symbolic link` };
      }
      if (!isInside(rootReal, real))
        return {
          ok: false,
          reason: 'link_outside',
          detail: `${next} is a symbolic link leading outside (to ${real})`,
        };
      if (!lstatSync(real).isDirectory())
        return { ok: false, reason: 'not_a_folder', detail: `${next} is not a folder` };
      cur = real;
    } else if (st.isDirectory()) cur = next;
    else return { ok: false, reason: 'not_a_folder', detail: `${next} is not a folder` };
  }
  return { ok: true, dir: cur };
}

/**
 * Creates the file `rel` under `root` with `bytes` and `mode`, only if nothing is at that path yet,
 * without following a link at the destination or out of the root on the way to it. Meant for a
 * folder nobody else writes at the same time (a worktree before its first task): the folders are
 * checked one by one, then the file is created exclusively.
 */
export function createInside(root: string, rel: string, bytes: Buffer, mode: number): Created {
  const bad = badRelative(rel);
  if (bad) return { ok: false, reason: 'bad_path', detail: bad };
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (e) {
    return { ok: false, reason: 'failed', detail: `${root}: ${errno(e)}` };
  }
  try {
    const folder = folderInside(rootReal, dirname(rel.replace(/\\/g, '/')));
    if (!folder.ok) return folder;
    const target = join(folder.dir, basename(rel));
    let fd: number;
    try {
      fd = openSync(target, CREATE_FLAGS, mode & 0o777);
    } catch (e) {
      const code = errno(e);
      if (code === 'EEXIST' || code === 'ELOOP') {
        const what = lstatSync(target, { throwIfNoEntry: false });
        if (what?.isFile())
          return { ok: false, reason: 'exists', detail: 'the destination already holds a file' };
        const kind = what?.isSymbolicLink() ? 'a symbolic link' : 'something that is not a file';
        return { ok: false, reason: 'occupied', detail: `the destination already holds ${kind}` };
      }
      return { ok: false, reason: 'failed', detail: `cannot create ${target}: ${code}` };
    }
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      // The umask narrowed the mode given to open; the copy keeps the source's own.
      fchmodSync(fd, mode & 0o777);
    } catch (e) {
      closeSync(fd);
      rmSync(target, { force: true });
      return { ok: false, reason: 'failed', detail: `cannot write ${target}: ${errno(e)}` };
    }
    closeSync(fd);
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: 'failed', detail: `${rel}: ${errno(e) || (e as Error).message}` };
  }
}

/**
 * Makes the folder `relDir` under `root` (and its parents), like `mkdir -p` but never through a
 * link that leads out of the root: the folders are checked and made one at a time.
 */
export function makeFoldersInside(root: string, relDir: string): Created {
  const bad = badRelative(relDir);
  if (bad) return { ok: false, reason: 'bad_path', detail: bad };
  try {
    const folder = folderInside(realpathSync(root), relDir.replace(/\\/g, '/'));
    return folder.ok ? { ok: true } : folder;
  } catch (e) {
    return { ok: false, reason: 'failed', detail: `${relDir}: ${errno(e) || (e as Error).message}` };
  }
}
