import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { COLLECTION_INDEX_PATH, CollectionIndex } from '../../contract/addons.js';
import { readAddonDir } from '../../core/addons/installed.js';
import type { AddonFiles } from '../../core/addons/types.js';
import { kindOf, listInside, readInside } from '../fs/safe-read.js';
import { inRepoQueue } from '../git/repo-queue.js';
import { ensureCommit, lsTree, mirrorPath, openMirror, readBlob, resolveRef } from './git-tree.js';
import type { Outcome, TreeEntry } from './git-tree.js';

/*
 * Where add-on collections come from (ADR 0020): a directory on this machine, read live, or a git
 * repository, read at a commit from a bare mirror in a cache dir so that addons.lock can pin it.
 * Either way only the files Jig reads of an add-on are read (core/addons readAddonDir picks them,
 * as it does for an installed copy), and never anything outside the collection.
 */

export type CollectionSource = { kind: 'dir'; path: string } | { kind: 'git'; url: string };

/** A collection's files are text a person reads in the review; a bigger one is a mistake or an attack. */
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10_000;
const KINDS = 'a directory, a git URL (https://, ssh://, git@host:path, file://) or a GitHub owner/repo';
// GitHub's own rules for an owner (letters, digits, inner hyphens) and a repository name.
const SHORTHAND = /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)\/([A-Za-z0-9._-]+)$/;
const SCP = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:\S+$/;
const NO_SECRETS = 'Jig keeps no secrets in addons.yaml; use a git credential helper or an SSH key';

type Parsed = { ok: true; source: CollectionSource } | { ok: false; message: string };

/** Hides a URL's user and password: they are secrets (a token often sits in the user part). */
const redact = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');

/** A git remote as typed: a URL of a scheme Jig clones from, or git's `user@host:path`; null when it is neither. */
function parseRemote(t: string): { ok: true; url: string } | { ok: false; message: string } | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(t)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (/^[^\s/@]+:[^\s/@]*@[^\s/]+:/.test(t))
      return {
        ok: false,
        message: `\`***@${t.split('@').slice(1).join('@')}\` has a password in it: ${NO_SECRETS}`,
      };
    return SCP.test(t) ? { ok: true, url: t } : null;
  }
  if (scheme !== 'https' && scheme !== 'ssh' && scheme !== 'file')
    return {
      ok: false,
      message: `\`${scheme}://\` is not a scheme Jig clones from: use https://, ssh://, git@host:path or file://`,
    };
  let u: URL;
  try {
    if (/\s/.test(t)) throw new Error('space');
    u = new URL(t);
  } catch {
    return { ok: false, message: `\`${redact(t)}\` is not a valid URL` };
  }
  if (u.password !== '' || (scheme === 'https' && u.username !== ''))
    return { ok: false, message: `\`${redact(t)}\` has credentials in it: ${NO_SECRETS}` };
  if (scheme === 'file' && u.host !== '')
    return { ok: false, message: `\`${t}\` names a host: a file:// URL is file:///absolute/path` };
  return { ok: true, url: t };
}

const shorthand = (t: string): string | null => {
  const m = SHORTHAND.exec(t);
  if (!m || m[2] === '.' || m[2] === '..') return null;
  const [, owner, repo = ''] = m;
  return `https://github.com/${owner}/${repo.replace(/\.git$/, '')}.git`;
};

/** A git source as stored or built by hand: a remote, or the shorthand's GitHub URL. */
function remoteOf(t: string): ReturnType<typeof parseRemote> {
  const github = shorthand(t);
  return parseRemote(t) ?? (github === null ? null : { ok: true, url: github });
}

/**
 * What a user typed for `collection add`. A path (resolved against `cwd`) that is a directory is a
 * `dir` source even inside a git work tree: the operator asked for the files as they are now. An
 * existing path wins over the `owner/repo` shorthand, which is tried only when no such path exists.
 */
export function parseSource(text: string, cwd: string): Parsed {
  const t = text.trim();
  if (t === '') return { ok: false, message: `no source given: name ${KINDS}` };
  if (/[\x00-\x1f\x7f]/.test(t)) return { ok: false, message: 'the source contains a control character' };
  const remote = parseRemote(t);
  if (remote !== null) return remote.ok ? { ok: true, source: { kind: 'git', url: remote.url } } : remote;
  const path = resolve(cwd, t);
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(path);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) return { ok: true, source: { kind: 'dir', path } };
  if (st !== undefined)
    return {
      ok: false,
      message: `\`${path}\` is ${st.isFile() ? 'a file' : kindOf(st)}, not a directory: a collection is a directory holding .jig/collection.json`,
    };
  const github = shorthand(t);
  if (github !== null) return { ok: true, source: { kind: 'git', url: github } };
  return { ok: false, message: `\`${t}\` is not ${KINDS}: \`${path}\` does not exist` };
}

/** The `source` addons.yaml stores. */
export function sourceText(s: CollectionSource): string {
  return s.kind === 'dir' ? s.path : s.url;
}

/** A stored `source` back; a hand-written `owner/repo` is read as the GitHub URL it stands for. */
export function storedSource(text: string): CollectionSource {
  if (isAbsolute(text)) return { kind: 'dir', path: text };
  const remote = remoteOf(text);
  return { kind: 'git', url: remote?.ok ? remote.url : text };
}

/** What failed, in words a user can act on; thrown by readCollection and a snapshot's addonFiles. */
export class CollectionError extends Error {
  override readonly name = 'CollectionError';
}

export interface CollectionSnapshot {
  /** The commit read; null for a directory source. */
  commit: string | null;
  index: CollectionIndex;
  /**
   * One add-on's files by its entry name in the index; null when the entry's directory is missing.
   * Throws CollectionError for a name the index does not list, a file over 1 MiB, or a link that
   * leaves the collection (a directory) or any link at all (git, which has no file system to
   * resolve one in).
   */
  addonFiles(name: string): Promise<AddonFiles | null>;
}

export interface ReadOptions {
  /** Where git mirrors are kept (`<key>.git`, one per URL). */
  cacheDir: string;
  /** Branch, tag or commit to read; HEAD when absent. */
  ref?: string | null;
  /** An exact commit (addons.lock's pin); wins over `ref`, fetched when the mirror lacks it. */
  commit?: string | null;
  /** Fetch the mirror's branches and tags first (a clone is always fresh). */
  fetch?: boolean;
}

/**
 * Reads a collection's index, and gives its add-ons' files on demand. Every git call on one mirror
 * (clone, fetch, reads) waits for the earlier ones: two fetches into one bare repository race on
 * its refs, and a clone racing a read finds half a repository.
 */
export async function readCollection(
  source: CollectionSource,
  opts: ReadOptions,
): Promise<CollectionSnapshot> {
  return source.kind === 'dir' ? readDir(source.path) : readGit(source.url, opts);
}

const tooLarge = (rel: string) =>
  new CollectionError(`\`${rel}\` is larger than 1 MiB, the most Jig reads of a collection's file`);

function must<T>(o: Outcome<T>): T {
  if (!o.ok) throw new CollectionError(o.message);
  return o.value;
}

/** A folder's names (a path from the collection root); null when it is missing or not a folder. */
function dirNames(root: string, rel: string): string[] | null {
  const r = listInside(root, rel, { rootName: 'collection', maxEntries: MAX_ENTRIES + 1 });
  if (r.ok) {
    if (r.names.length > MAX_ENTRIES)
      throw new CollectionError(`\`${rel}\` holds more than ${MAX_ENTRIES} entries`);
    return r.names;
  }
  if (r.reason === 'missing' || r.reason === 'not_regular') return null;
  throw new CollectionError(`\`${rel}\` ${r.detail}`);
}

/** A file's text; null when it is missing or not a regular file, as readAddonFiles has it. */
function dirText(root: string, rel: string): string | null {
  const r = readInside(root, rel, {
    rootName: 'collection',
    maxBytes: MAX_FILE_BYTES,
    refuseGitInternals: true,
  });
  if (r.ok) return r.bytes.toString('utf8');
  if (r.reason === 'missing' || r.reason === 'not_regular') return null;
  if (r.reason === 'too_large') throw tooLarge(rel);
  throw new CollectionError(`\`${rel}\` ${r.detail}`);
}

const SYMLINK = '120000';
const notFollowed = (rel: string) =>
  new CollectionError(`\`${rel}\` is a symbolic link, which Jig does not follow in a git collection`);

/** One file of a listing taken at a commit; null when absent or not a file (a submodule, a folder). */
async function treeText(mirror: string, e: TreeEntry | undefined, rel: string): Promise<string | null> {
  if (e === undefined || e.type !== 'blob') return null;
  if (e.mode === SYMLINK) throw notFollowed(rel);
  if (e.size === null || e.size > MAX_FILE_BYTES) throw tooLarge(rel);
  return must(await readBlob(mirror, e.oid, rel));
}

/**
 * An add-on's files at a commit, picked by the same readAddonDir as an installed copy (so the
 * digests agree): a first pass over the listing learns which files it reads, only those blobs are
 * read, and a second pass builds the files from them.
 */
async function treeFiles(mirror: string, entries: TreeEntry[], dir: string): Promise<AddonFiles> {
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const names = (rel: string): string[] => {
    const prefix = `${rel}/`;
    const found = new Set<string>();
    for (const e of entries)
      if (e.path.startsWith(prefix)) found.add(e.path.slice(prefix.length).split('/')[0] ?? '');
    return [...found];
  };
  const wanted: string[] = [];
  readAddonDir(
    {
      names,
      text: (p) => {
        wanted.push(p);
        return null;
      },
    },
    dir,
  );
  const texts = new Map<string, string>();
  for (const p of wanted) {
    const t = await treeText(mirror, byPath.get(p), p);
    if (t !== null) texts.set(p, t);
  }
  return readAddonDir({ names, text: (p) => texts.get(p) ?? null }, dir);
}

/** The entry's folder from the root; the schema already pins `source` to `./addons/<name>`. */
function entryDir(index: CollectionIndex, name: string): string {
  const entry = index.addons.find((e) => e.name === name);
  if (entry === undefined)
    throw new CollectionError(`the collection \`${index.name}\` lists no add-on \`${name}\``);
  const dir = entry.source.slice(2);
  if (!/^addons\/[a-z][a-z0-9_-]*$/.test(dir))
    throw new CollectionError(
      `the entry \`${name}\` has the source \`${entry.source}\`, not \`./addons/<name>\``,
    );
  return dir;
}

const missingIndex = (label: string) =>
  new CollectionError(`${label} has no ${COLLECTION_INDEX_PATH}, so it is not a Jig collection`);

/** Where JSON.parse stopped: Node 20 gives no position for an unexpected token, so scan for it. */
function jsonErrorOffset(t: string): number {
  const WS = /[ \t\n\r]*/y;
  const STR = /"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const COLON = /:/y;
  const SCALAR = new RegExp(
    `${STR.source}|-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|true|false|null`,
    'y',
  );
  let i = 0;
  const eat = (re: RegExp): boolean => {
    re.lastIndex = i;
    const m = re.exec(t);
    if (m !== null) i += m[0].length;
    return m !== null;
  };
  const value = (): boolean => {
    eat(WS);
    const open = t.charAt(i);
    if (open !== '{' && open !== '[') return eat(SCALAR);
    const close = open === '{' ? '}' : ']';
    i++;
    eat(WS);
    if (t.charAt(i) !== close)
      for (;;) {
        if (open === '{' && !(eat(STR) && eat(WS) && eat(COLON))) return false;
        if (!(value() && eat(WS))) return false;
        if (t.charAt(i) !== ',') break;
        i++;
        eat(WS);
      }
    if (t.charAt(i) !== close) return false;
    i++;
    return true;
  };
  if (value()) eat(WS);
  return i;
}

function parseIndex(text: string, label: string): CollectionIndex {
  const file = `\`${COLLECTION_INDEX_PATH}\` of ${label}`;
  const body = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (e) {
    const why = (e as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
    let line: number | null;
    try {
      line = body.slice(0, jsonErrorOffset(body)).split('\n').length;
    } catch {
      line = null; // nesting deep enough to overflow the scanner's stack
    }
    throw new CollectionError(`${file} is not valid JSON${line === null ? '' : ` at line ${line}`}: ${why}`);
  }
  const parsed = CollectionIndex.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const keys =
      issue.code === 'unrecognized_keys' ? ` (${issue.keys.map((k) => `\`${k}\``).join(', ')})` : '';
    return `${path === '' ? 'the index' : `\`${path}\``}: ${issue.message}${keys}`;
  });
  throw new CollectionError(`${file}: ${problems.join('; ')}`);
}

async function readDir(path: string): Promise<CollectionSnapshot> {
  if (!isAbsolute(path)) throw new CollectionError(`\`${path}\` is not an absolute path`);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new CollectionError(`the collection directory \`${path}\` does not exist`);
  }
  if (!isDir) throw new CollectionError(`\`${path}\` is not a directory`);
  const text = dirText(path, COLLECTION_INDEX_PATH);
  if (text === null) throw missingIndex(`\`${path}\``);
  const index = parseIndex(text, `\`${path}\``);
  return {
    commit: null,
    index,
    async addonFiles(name) {
      const dir = entryDir(index, name);
      if (dirNames(path, dir) === null) return null;
      return readAddonDir(
        { names: (rel) => dirNames(path, rel) ?? [], text: (rel) => dirText(path, rel) },
        dir,
      );
    },
  };
}

async function readGit(text: string, opts: ReadOptions): Promise<CollectionSnapshot> {
  // addons.yaml is a file a person edits: its URL passes the same checks as `collection add`'s.
  const remote = remoteOf(text);
  if (remote === null) throw new CollectionError(`\`${redact(text)}\` is not ${KINDS}`);
  if (!remote.ok) throw new CollectionError(remote.message);
  const url = remote.url;
  const queued = <T>(fn: () => Promise<T>) => inRepoQueue(mirrorPath(opts.cacheDir, url), fn);
  return queued(async () => {
    const { dir: mirror, fetched } = must(await openMirror(opts.cacheDir, url, opts.fetch ?? false));
    const commit = must(
      opts.commit != null
        ? await ensureCommit(mirror, url, opts.commit, fetched)
        : await resolveRef(mirror, url, opts.ref ?? null),
    );
    const label = `\`${url}\` at ${commit.slice(0, 12)}`;
    const listed = must(await lsTree(mirror, commit, [COLLECTION_INDEX_PATH], false));
    const entry = listed.find((e) => e.path === COLLECTION_INDEX_PATH);
    const text = await treeText(mirror, entry, COLLECTION_INDEX_PATH);
    if (text === null) throw missingIndex(label);
    const index = parseIndex(text, label);
    return {
      commit,
      index,
      addonFiles: (name) =>
        queued(async () => {
          const dir = entryDir(index, name);
          const entries = must(await lsTree(mirror, commit, [`${dir}/`], true));
          if (entries.length > 0) return treeFiles(mirror, entries, dir);
          const self = must(await lsTree(mirror, commit, [dir], false));
          if (self.some((e) => e.path === dir && e.mode === SYMLINK)) throw notFollowed(dir);
          return null;
        }),
    };
  });
}
