import {
  closeSync,
  constants,
  fstatSync,
  opendirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Dir,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Reading a file that a repository or a worktree holds, which someone else wrote: a FIFO must not
 * block the process, a link to /dev/zero must not fill memory, and a link (or a folder swapped for
 * one while Jig reads) must never make Jig read a file outside the root. See docs/security.md,
 * "Files from repositories".
 */

export type Refusal =
  | 'bad_path'
  | 'missing'
  | 'not_regular'
  | 'link_outside'
  | 'outside_root'
  | 'too_large'
  | 'hard_link'
  | 'git_internal'
  | 'changed'
  | 'unreadable';

export interface Refused {
  ok: false;
  reason: Refusal;
  /** A predicate for a sentence whose subject is the path: "is a FIFO, not a regular file". */
  detail: string;
}

export interface InsideRules {
  /** The most bytes ever read; a longer file is refused as `too_large`, whatever its size says. */
  maxBytes: number;
  /** Refuse a file with more than one hard link: its other name may be anywhere on the disk. */
  refuseHardLinks?: boolean;
  /** Refuse any path through a `.git` folder or file (git's config, hooks, objects). */
  refuseGitInternals?: boolean;
  /** What the root is, for the wording: "repository" (default) or "worktree". */
  rootName?: string;
}

export interface Inspected {
  ok: true;
  /** The opened file's real path, relative to the root's real path. */
  path: string;
  stat: Stats;
}

export type ReadInside = (Inspected & { bytes: Buffer }) | Refused;

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer. O_NOFOLLOW: a link as
// the last component fails the open. O_NOCTTY: a terminal device never becomes ours. Windows has
// none of these; Jig does not run there, and 0 keeps the open valid.
export const READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const CHUNK = 64 * 1024;

function refuse(reason: Refusal, detail: string): Refused {
  return { ok: false, reason, detail };
}

export function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** True when a component of the path is `.git` (any case: case-insensitive disks exist). */
export function throughGit(rel: string): boolean {
  return rel.split(/[\\/]/).some((c) => c.toLowerCase() === '.git');
}

/** A path a request or a config file gave: relative, without `..`, without NUL. */
export function badRelative(rel: string): string | null {
  if (rel === '' || rel.includes('\0')) return 'is not a path';
  if (isAbsolute(rel) || rel.startsWith('\\')) return 'must be relative';
  if (rel.split(/[\\/]/).includes('..')) return 'must not contain ..';
  return null;
}

/** What a file that is not regular is ("a FIFO"), for a sentence such as "is a FIFO, not a regular file". */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function errno(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? '';
}

/**
 * The real path of an opened file. On Linux /proc/self/fd says what the descriptor is, whatever
 * happened to the path since; elsewhere the path is resolved again and must name the same inode.
 */
function openedPath(fd: number, st: Stats, real: string): string | null {
  try {
    const p = readlinkSync(`/proc/self/fd/${fd}`);
    return p.endsWith(' (deleted)') ? p.slice(0, -' (deleted)'.length) : p;
  } catch {
    try {
      const again = realpathSync(real);
      const now = statSync(again);
      return now.dev === st.dev && now.ino === st.ino ? again : null;
    } catch {
      return null;
    }
  }
}

/**
 * Opens `rel` under `root` once, then decides on the opened descriptor: links may be followed only
 * while they stay inside the root (a `Makefile -> build/Makefile` is fine), the opened file must
 * really be inside the root (this also catches a folder swapped for a link between the check and
 * the open), and only a regular file passes. On success the caller owns `fd` and must close it.
 */
export function openInside(
  root: string,
  rel: string,
  rules: InsideRules,
): (Inspected & { fd: number }) | Refused {
  const where = rules.rootName ?? 'repository';
  const bad = badRelative(rel);
  if (bad) return refuse('bad_path', bad);
  if (rules.refuseGitInternals && throughGit(rel))
    return refuse('git_internal', 'is inside .git, which Jig never reads');
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    return refuse('missing', `does not exist: the ${where} is gone`);
  }
  let real: string;
  try {
    real = realpathSync(join(rootReal, rel));
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', `does not exist in the ${where}`);
    if (code === 'ELOOP') return refuse('unreadable', 'is a loop of symbolic links');
    // A component was a link when listed and something else when read: someone is changing it.
    if (code === 'EINVAL') return refuse('changed', 'changed while Jig opened it');
    return refuse('unreadable', `cannot be read (${code || (e as Error).message})`);
  }
  if (!isInside(rootReal, real)) return refuse('link_outside', `leads outside the ${where} (to ${real})`);
  if (rules.refuseGitInternals && throughGit(relative(rootReal, real)))
    return refuse('git_internal', 'leads inside .git, which Jig never reads');
  let fd: number;
  try {
    fd = openSync(real, READ_FLAGS);
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', `does not exist in the ${where}`);
    // The last component was a file a moment ago and is a link now: someone is changing it.
    if (code === 'ELOOP') return refuse('changed', 'changed while Jig opened it');
    // A socket cannot be opened at all; some devices refuse a non-blocking open.
    if (code === 'ENXIO' || code === 'EAGAIN' || code === 'EWOULDBLOCK')
      return refuse('not_regular', 'is not a regular file');
    return refuse('unreadable', `cannot be read (${code || (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    const opened = openedPath(fd, st, real);
    if (opened === null) return closeWith(fd, refuse('changed', 'changed while Jig opened it'));
    if (!isInside(rootReal, opened))
      return closeWith(
        fd,
        refuse('outside_root', `leads outside the ${where} (a link changed while Jig opened it)`),
      );
    const openedRel = relative(rootReal, opened);
    if (rules.refuseGitInternals && throughGit(openedRel))
      return closeWith(fd, refuse('git_internal', 'leads inside .git, which Jig never reads'));
    if (!st.isFile()) return closeWith(fd, refuse('not_regular', `is ${kindOf(st)}, not a regular file`));
    if (rules.refuseHardLinks && st.nlink > 1)
      return closeWith(
        fd,
        refuse(
          'hard_link',
          `has ${st.nlink} hard links; Jig reads only files with one, whose other names could be anywhere`,
        ),
      );
    if (st.size > rules.maxBytes)
      return closeWith(fd, refuse('too_large', `is larger than ${rules.maxBytes} bytes`));
    return { ok: true, fd, path: openedRel, stat: st };
  } catch (e) {
    return closeWith(fd, refuse('unreadable', `cannot be read (${errno(e) || (e as Error).message})`));
  }
}

function closeWith<T>(fd: number, value: T): T {
  closeSync(fd);
  return value;
}

/** Reads at most `max + 1` bytes: the size of a /proc file or a growing file cannot be trusted. */
function readCapped(fd: number, max: number): Buffer | null {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(CHUNK, max + 1 - total);
    const buf = Buffer.allocUnsafe(want);
    const n = readSync(fd, buf, 0, want, null);
    if (n === 0) break;
    parts.push(n === want ? buf : buf.subarray(0, n));
    total += n;
    if (total > max) return null;
  }
  return Buffer.concat(parts, total);
}

/** Reads a file under `root` by the rules above; never more than `rules.maxBytes`. */
export function readInside(root: string, rel: string, rules: InsideRules): ReadInside {
  const opened = openInside(root, rel, rules);
  if (!opened.ok) return opened;
  const { fd, ...info } = opened;
  try {
    const bytes = readCapped(fd, rules.maxBytes);
    if (bytes === null) return refuse('too_large', `is larger than ${rules.maxBytes} bytes`);
    return { ...info, bytes };
  } catch (e) {
    return refuse('unreadable', `cannot be read (${errno(e) || (e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/** Checks a file as `readInside` would, without reading it. */
export function inspectInside(root: string, rel: string, rules: InsideRules): Inspected | Refused {
  const opened = openInside(root, rel, rules);
  if (!opened.ok) return opened;
  const { fd, ...info } = opened;
  closeSync(fd);
  return info;
}

export type ListInside = { ok: true; path: string; names: string[] } | Refused;

const DIR_FLAGS = READ_FLAGS | (constants.O_DIRECTORY ?? 0);

/**
 * The names in a folder under `root` (at most `maxEntries`, unsorted), by the same rules as
 * `openInside`: links followed only while they stay inside, and the folder actually opened checked.
 * The names are only names: read each one with `readInside`.
 */
export function listInside(
  root: string,
  rel: string,
  rules: { maxEntries: number; rootName?: string },
): ListInside {
  const where = rules.rootName ?? 'repository';
  const bad = badRelative(rel);
  if (bad) return refuse('bad_path', bad);
  let rootReal: string;
  let real: string;
  try {
    rootReal = realpathSync(root);
    real = realpathSync(join(rootReal, rel));
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', `does not exist in the ${where}`);
    if (code === 'EINVAL') return refuse('changed', 'changed while Jig opened it');
    return refuse('unreadable', `cannot be read (${code || (e as Error).message})`);
  }
  if (!isInside(rootReal, real)) return refuse('link_outside', `leads outside the ${where} (to ${real})`);
  let fd: number;
  try {
    fd = openSync(real, DIR_FLAGS);
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT') return refuse('missing', `does not exist in the ${where}`);
    if (code === 'ENOTDIR' || code === 'ENXIO') return refuse('not_regular', 'is not a folder');
    if (code === 'ELOOP') return refuse('changed', 'changed while Jig opened it');
    return refuse('unreadable', `cannot be read (${code || (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isDirectory()) return refuse('not_regular', `is ${kindOf(st)}, not a folder`);
    const opened = openedPath(fd, st, real);
    if (opened === null) return refuse('changed', 'changed while Jig opened it');
    if (!isInside(rootReal, opened))
      return refuse('outside_root', `leads outside the ${where} (a link changed while Jig opened it)`);
    // Linux lists the very folder opened; elsewhere the path was just checked to be that folder.
    const names: string[] = [];
    const dir = opendirSafe(fd, opened);
    try {
      for (let d = dir.readSync(); d !== null && names.length < rules.maxEntries; d = dir.readSync())
        names.push(d.name);
    } finally {
      dir.closeSync();
    }
    return { ok: true, path: relative(rootReal, opened), names };
  } catch (e) {
    return refuse('unreadable', `cannot be read (${errno(e) || (e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

function opendirSafe(fd: number, opened: string): Dir {
  try {
    return opendirSync(`/proc/self/fd/${fd}`);
  } catch {
    return opendirSync(opened);
  }
}
