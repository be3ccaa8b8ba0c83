import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { planFiles } from './plan.js';

/** One file that signs a CLI in, as its provider definition names it. */
export type LoginFile = NonNullable<ProviderDefinition['login']>['files'][number];

/** A login file's two places: where the CLI keeps it outside, and its copy in the item's HOME. */
const LoginCopy = z.object({
  host: z.string().min(1),
  /** The item's HOME, and the copy's path below it. */
  home: z.string().min(1),
  rel: z.string().min(1),
  /** Written back when renewed inside (a credential the CLI rewrites); else copied in only. */
  renew: z.boolean(),
  /** The digest of what was copied in: what both sides are compared against at the end. */
  copied: z.string().nullable(),
});
type LoginCopy = z.infer<typeof LoginCopy>;

/** More than any login file holds: a bigger file is not read. */
const MAX_BYTES = 1 << 20;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

const digest = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/**
 * A regular file of a login's size, read from one descriptor. `follow`: the user's side, where a
 * login may be a link into a dotfiles folder; inside the jail no link is followed at its name.
 */
function readFile(path: string, follow = false): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, follow ? READ & ~constants.O_NOFOLLOW : READ);
    const st = fstatSync(fd);
    return st.isFile() && st.size <= MAX_BYTES ? readFileSync(fd) : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/*
 * The item's HOME is the jail's, and a process of the item may still run while the server reads
 * it: whatever is there is untrusted and may change under us. A link in place of a folder or of
 * the file would make the server read or write a file of its choosing outside (an SSH key copied
 * in for the task to read; a file written anywhere the server may write). So the folders are
 * walked by descriptor, each opened O_DIRECTORY|O_NOFOLLOW relative to the one above through
 * /proc/self/fd (no path is resolved twice), and anything else in a folder's place is removed:
 * the HOME is the jail's own. `make`: create what is missing; else answer null there.
 */
function openFolder(home: string, rel: string, make: boolean): number | null {
  let fd = openSync(home, DIR);
  for (const part of dirname(rel)
    .split(sep)
    .filter((p) => p !== '.' && p !== '')) {
    const at = `/proc/self/fd/${fd}/${part}`;
    let next: number | null = null;
    try {
      next = openSync(at, DIR);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') rmSync(at, { force: true, recursive: true });
      if (make) {
        mkdirSync(at, { mode: 0o700 });
        next = openSync(at, DIR);
      }
    }
    closeSync(fd);
    if (next === null) return null;
    fd = next;
  }
  return fd;
}

/** What happens to one copy: `start` copies in; the end writes a renewal back. */
function sync(c: LoginCopy, at: 'start' | 'end'): string | null {
  const host = readFile(c.host, true);
  const dir = openFolder(c.home, c.rel, host !== null);
  if (dir === null) return null;
  const path = `/proc/self/fd/${dir}/${basename(c.rel)}`;
  try {
    if (host === null) {
      // Signed out outside (or never signed in): the jail does not keep a login the user dropped.
      rmSync(path, { force: true, recursive: true });
      return null;
    }
    const inside = readFile(path);
    if (at === 'end' && inside !== null && c.renew && c.copied !== null && renewed(inside, host, c.copied)) {
      writeFileAtomic(realFile(c.host), inside, 0o600);
      return digest(inside);
    }
    // Whatever is there in the file's place (a link, a FIFO, a folder) goes; the rename replaces a file.
    if (inside === null) rmSync(path, { force: true, recursive: true });
    if (inside === null || !inside.equals(host)) writeFileAtomic(path, host, 0o600, { durable: false });
    return digest(host);
  } finally {
    closeSync(dir);
  }
}

/*
 * A renewal to write back: the copy changed inside since it was copied in, the host's did not (if
 * both changed, the host's wins: it is the user's), and what came back is still a login of the
 * same shape (a JSON object with the same keys). No clock is consulted: a task sets its file's
 * times as it likes.
 */
function renewed(inside: Buffer, host: Buffer, copied: string): boolean {
  if (digest(inside) === copied || digest(host) !== copied) return false;
  const shape = shapeOf(inside);
  return shape !== null && shape === shapeOf(host);
}

function shapeOf(text: Buffer): string | null {
  try {
    const v: unknown = JSON.parse(text.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v).sort().join(',') : null;
  } catch {
    return null;
  }
}

/** The real file behind a path (a login kept in a dotfiles folder and linked), else the path. */
function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Copies a harness's login files into the item's HOME for a jailed launch (each from where the
 * unjailed CLI would read it: its folder variable when the task sets one, else the task's HOME),
 * points those folder variables at the copies, and notes both places in the session's folder so
 * the end of the session writes a renewed login back. A file the user does not have adds nothing.
 */
export function copyInLogins(
  files: readonly LoginFile[],
  env: Record<string, string>,
  itemHome: string,
  sessionDir: string,
): void {
  // Read before any is pointed at the copies: two files may share one folder variable.
  const outside = { ...env };
  const hostHome = outside.HOME ?? homedir();
  const copies: LoginCopy[] = [];
  for (const f of files) {
    const folder = f.env === undefined ? undefined : outside[f.env];
    const host = folder ? join(folder, basename(f.path)) : join(hostHome, f.path);
    // The folder the variable named is not in the jail; its copy is.
    if (f.env !== undefined && folder) env[f.env] = dirname(join(itemHome, f.path));
    const copy = {
      host,
      home: itemHome,
      rel: relative(itemHome, join(itemHome, f.path)),
      renew: f.renew === true,
      copied: null,
    };
    copies.push({ ...copy, copied: sync(copy, 'start') });
  }
  if (copies.length === 0) return;
  mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
  writeFileSync(planFiles(sessionDir).logins, JSON.stringify(copies), { mode: 0o600 });
}

/** At a jailed session's end: a login its CLI renewed inside goes back to where the CLI keeps it. */
export function writeBackLogins(sessionDir: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(planFiles(sessionDir).logins, 'utf8'));
  } catch {
    return;
  }
  const copies = z.array(LoginCopy).safeParse(raw);
  if (!copies.success) return;
  for (const c of copies.data) sync(c, 'end');
}
