import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { git, type GitResult } from '../git/git.js';

/*
 * A collection's git repository as Jig keeps it: a bare mirror per URL under the cache dir, read
 * at a commit with ls-tree and cat-file. Nothing is ever checked out, so no hook, filter or
 * attribute of the collection runs on this machine.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

const NETWORK_MS = 60_000;
const LOCAL_MS = 30_000;

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = <T>(message: string): Outcome<T> => ({ ok: false, message });

/** What git said first, without its `fatal:` prefix: enough for a person to act on. */
function firstLine(r: GitResult): string {
  const line = r.stderr.split('\n').find((l) => l.trim() !== '') ?? `git exited with code ${r.code}`;
  return line.replace(/^(fatal|error): /, '').trim();
}

/**
 * `<cacheDir>/<first 16 hex of sha256(url)>.git`: one mirror per URL, whatever it names. Absolute,
 * because it is also the key calls for one mirror queue on, and git runs in another folder.
 */
export function mirrorPath(cacheDir: string, url: string): string {
  return join(
    resolve(cacheDir),
    `${createHash('sha256').update(url, 'utf8').digest('hex').slice(0, 16)}.git`,
  );
}

// --git-dir: a GIT_DIR in the server's environment must never send these calls elsewhere.
const inMirror = (dir: string, args: string[], timeoutMs = LOCAL_MS): Promise<GitResult> =>
  git(dir, [`--git-dir=${dir}`, ...args], timeoutMs);

async function fetchRefs(dir: string, url: string): Promise<Outcome<null>> {
  const r = await inMirror(
    dir,
    ['fetch', '--quiet', '--prune', 'origin', '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'],
    NETWORK_MS,
  );
  return r.code === 0 ? ok(null) : fail(`cannot fetch \`${url}\`: ${firstLine(r)}`);
}

/**
 * The mirror of `url`, cloned on first use (into a temp name renamed into place, so a clone cut
 * short never leaves a mirror that looks whole) and fetched when asked. `fetched` says whether it
 * is as new as the remote now, which spares a second fetch for a pinned commit.
 */
/** The object types `git ls-tree` names (the pattern above admits no other). */
function isEntryType(t: string | undefined): t is TreeEntry['type'] {
  return t === 'blob' || t === 'tree' || t === 'commit';
}

export async function openMirror(
  cacheDir: string,
  url: string,
  fetch: boolean,
): Promise<Outcome<{ dir: string; fetched: boolean }>> {
  const dir = mirrorPath(cacheDir, url);
  if (existsSync(dir)) {
    if (!fetch) return ok({ dir, fetched: false });
    const f = await fetchRefs(dir, url);
    return f.ok ? ok({ dir, fetched: true }) : f;
  }
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const r = await git(cacheDir, ['clone', '--bare', '--quiet', '--', url, tmp], NETWORK_MS);
  if (r.code !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    return fail(`cannot clone \`${url}\`: ${firstLine(r)}`);
  }
  try {
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process cloned the same URL meanwhile: its mirror is as good as ours.
    if (!existsSync(dir)) throw e;
  }
  return ok({ dir, fetched: true });
}

const hasCommit = async (dir: string, rev: string): Promise<string | null> => {
  const r = await inMirror(dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : null;
};

/** A branch, tag or commit (HEAD when null) to the commit it names in the mirror. */
export async function resolveRef(dir: string, url: string, ref: string | null): Promise<Outcome<string>> {
  if (ref !== null && (ref === '' || ref.startsWith('-') || /[\s\0-\x1f]/.test(ref)))
    return fail(
      `\`${ref}\` is not a git ref: a branch, tag or commit is not empty and has no leading \`-\` and no spaces`,
    );
  const sha = await hasCommit(dir, ref ?? 'HEAD');
  if (sha !== null) return ok(sha);
  return fail(
    ref === null
      ? `\`${url}\` has no commit at HEAD: the repository is empty or its default branch is gone`
      : `\`${ref}\` is not a branch, tag or commit of \`${url}\``,
  );
}

/**
 * A pinned commit (addons.lock on a new machine, or after the branch moved on): looked up in the
 * mirror, then after fetching the branches and tags, then by id (a commit that only another ref
 * holds, such as a pull request's). A commit fetched by id gets a ref of its own, which the
 * fetch's --prune leaves alone, so that git's gc keeps it while the branch has moved on.
 */
export async function ensureCommit(
  dir: string,
  url: string,
  commit: string,
  fetched: boolean,
): Promise<Outcome<string>> {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit))
    return fail(`\`${commit}\` is not a full commit id (40 or 64 lowercase hex digits)`);
  if ((await hasCommit(dir, commit)) !== null) return ok(commit);
  if (!fetched) {
    const f = await fetchRefs(dir, url);
    if (!f.ok) return f;
    if ((await hasCommit(dir, commit)) !== null) return ok(commit);
  }
  const r = await inMirror(
    dir,
    ['fetch', '--quiet', 'origin', `${commit}:refs/jig/commits/${commit}`],
    NETWORK_MS,
  );
  if (r.code === 0 && (await hasCommit(dir, commit)) !== null) return ok(commit);
  return fail(`commit ${commit} is not in \`${url}\`: it may have been rewritten away`);
}

export interface TreeEntry {
  /** `100644`, `100755`, `120000` (a symbolic link), `160000` (a submodule). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
  /** Bytes of a blob; null for a tree or a submodule. */
  size: number | null;
  /** From the repository root. */
  path: string;
}

/**
 * The entries at `paths` of a commit (`dir/` with `recursive`: every file under it). git sorts
 * and NUL-separates them, so no path is ever quoted or split wrongly.
 */
export async function lsTree(
  dir: string,
  commit: string,
  paths: string[],
  recursive: boolean,
): Promise<Outcome<TreeEntry[]>> {
  const args = ['ls-tree', '-z', '-l', ...(recursive ? ['-r'] : []), commit, '--', ...paths];
  const r = await inMirror(dir, args);
  if (r.code !== 0) return fail(`cannot list ${paths.join(', ')} at ${commit}: ${firstLine(r)}`);
  const entries: TreeEntry[] = [];
  for (const rec of r.stdout.split('\0')) {
    const m = /^(\d+) (blob|tree|commit) ([0-9a-f]+) +(-|\d+)\t(.*)$/s.exec(rec);
    if (!m) continue;
    const [, mode, type, oid, size, path] = m;
    if (
      mode === undefined ||
      !isEntryType(type) ||
      oid === undefined ||
      size === undefined ||
      path === undefined
    )
      continue;
    entries.push({ mode, type, oid, size: size === '-' ? null : Number(size), path });
  }
  return ok(entries);
}

export async function readBlob(dir: string, oid: string, path: string): Promise<Outcome<string>> {
  const r = await inMirror(dir, ['cat-file', 'blob', oid]);
  return r.code === 0 ? ok(r.stdout) : fail(`cannot read \`${path}\`: ${firstLine(r)}`);
}
