import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git, gitScript } from '../git/git.js';

/** A snapshot commit is made by Jig, not by a person or agent: it names itself so. */
const SNAPSHOT_ENV = {
  GIT_AUTHOR_NAME: 'jig',
  GIT_AUTHOR_EMAIL: 'jig@localhost',
  GIT_COMMITTER_NAME: 'jig',
  GIT_COMMITTER_EMAIL: 'jig@localhost',
};

const SNAPSHOT_TIMEOUT_MS = 120_000;

async function must(worktree: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await git(worktree, args, SNAPSHOT_TIMEOUT_MS, env);
  if (r.code !== 0) throw new Error(`git ${args[0]} in ${worktree} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * The snapshot of a worktree that may be gone (the item archived or cancelled meanwhile): null when
 * there is none, or when it vanished while being read; any other failure is a real error.
 */
export async function snapshotIfPresent(worktree: string | null): Promise<string | null> {
  if (!worktree || !existsSync(worktree)) return null;
  try {
    return await snapshotCommit(worktree);
  } catch (err) {
    if (!existsSync(worktree)) return null;
    throw err;
  }
}

/*
 * The steps of a snapshot, in one shell: HEAD, its tree and its time; the worktree staged through
 * the copy of its index (`$1`); the tree written; and, when it differs from HEAD's, a commit on top
 * of HEAD dated as HEAD is. Every node run takes a snapshot, and each git process the server starts
 * itself costs a fork of the whole server (gitScript, ../git/git.ts): one process instead of four.
 */
const SNAPSHOT_SCRIPT = `
set -f
info=$(git show -s --no-show-signature --format='%H %T %ct' 'HEAD^{commit}') || exit
set -- "$1" $info
[ $# -eq 4 ] || { echo "git show answered no HEAD" >&2; exit 1; }
index=$1 head=$2 head_tree=$3 when="@$4 +0000"
GIT_INDEX_FILE=$index git add --all -- . || exit
tree=$(GIT_INDEX_FILE=$index git write-tree) || exit
if [ "$tree" = "$head_tree" ]; then echo "$head"; exit 0; fi
GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when exec git commit-tree "$tree" -p "$head" -m 'jig: the worktree with its uncommitted changes'
`;

/**
 * The commit of the worktree as it is now, uncommitted and untracked (not ignored) files included:
 * HEAD itself when nothing is uncommitted, else a commit on top of HEAD that no branch points to.
 * It is staged through a copy of the worktree's index so the agent's own index, HEAD and files
 * are never touched (a review must not change what it reviews), and the copy keeps the index's
 * stat data, so only changed files are hashed again.
 */
export async function snapshotCommit(worktree: string): Promise<string> {
  // The index's path costs no process when the worktree's `.git` says where it is.
  const index =
    indexBeside(worktree) ??
    (await must(worktree, ['rev-parse', '--path-format=absolute', '--git-path', 'index']));
  const tmp = join(tmpdir(), `jig-index-${randomUUID()}`);
  try {
    if (existsSync(index)) {
      copyFileSync(index, tmp);
      // The copy keeps the index's own time: git re-reads a file whose change falls in the same
      // second as the index was written ("racy git"), judged by that time. A newer copy would let
      // a same-size edit made in that second pass as unchanged.
      const st = statSync(index);
      utimesSync(tmp, st.atime, st.mtime);
    }
    // Dated as HEAD is, so the same tree on the same HEAD is the same commit: `latest` keeps its
    // sha while nothing changes, however often it is read.
    const r = await gitScript(worktree, SNAPSHOT_SCRIPT, [tmp], SNAPSHOT_TIMEOUT_MS, SNAPSHOT_ENV);
    const sha = r.stdout.trim();
    if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha))
      throw new Error(`the snapshot of ${worktree} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
    return sha;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.lock`, { force: true });
  }
}

/**
 * The index of a worktree whose `.git` is the repository's folder or a `gitdir:` file pointing at
 * one (what `git worktree add` writes, absolute or relative); null for anything else (a `.git` set
 * up another way, GIT_DIR in the environment), which git itself is asked about.
 */
function indexBeside(worktree: string): string | null {
  if (process.env.GIT_DIR || process.env.GIT_INDEX_FILE) return null;
  const dotGit = join(worktree, '.git');
  try {
    const st = lstatSync(dotGit);
    if (st.isDirectory()) return join(dotGit, 'index');
    if (!st.isFile()) return null;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return m?.[1] ? join(resolve(worktree, m[1].trim()), 'index') : null;
  } catch {
    return null;
  }
}

/** Keeps `sha` from git's garbage collection under a ref of Jig's own (`refs/jig/...`). */
export async function keepCommit(worktree: string, ref: string, sha: string): Promise<void> {
  await must(worktree, ['update-ref', ref, sha]);
}
