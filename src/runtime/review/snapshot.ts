import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../git/git.js';

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
 * The commit of the worktree as it is now, uncommitted and untracked (not ignored) files included:
 * HEAD itself when nothing is uncommitted, else a commit on top of HEAD that no branch points to.
 * It is staged through a copy of the worktree's index so the agent's own index, HEAD and files
 * are never touched (a review must not change what it reviews), and the copy keeps the index's
 * stat data, so only changed files are hashed again.
 */
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

export async function snapshotCommit(worktree: string): Promise<string> {
  // One process for the index's path, HEAD and HEAD's tree: every node run takes a snapshot, and a
  // git process costs the server a fork of itself (milliseconds for a server of 150 MiB).
  const [index, head, headTree] = (
    await must(worktree, [
      'rev-parse',
      '--path-format=absolute',
      '--git-path',
      'index',
      'HEAD^{commit}',
      'HEAD^{tree}',
    ])
  ).split('\n');
  if (!index || !head || !headTree) throw new Error(`git rev-parse in ${worktree} answered no HEAD`);
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
    const env = { GIT_INDEX_FILE: tmp };
    await must(worktree, ['add', '--all', '--', '.'], env);
    const tree = await must(worktree, ['write-tree'], env);
    if (tree === headTree) return head;
    // Dated as HEAD is, so the same tree on the same HEAD is the same commit: `latest` keeps its
    // sha while nothing changes, however often it is read.
    const when = `@${await must(worktree, ['show', '-s', '--format=%ct', head])} +0000`;
    return await must(
      worktree,
      ['commit-tree', tree, '-p', head, '-m', 'jig: the worktree with its uncommitted changes'],
      { ...SNAPSHOT_ENV, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when },
    );
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.lock`, { force: true });
  }
}

/** Keeps `sha` from git's garbage collection under a ref of Jig's own (`refs/jig/...`). */
export async function keepCommit(worktree: string, ref: string, sha: string): Promise<void> {
  await must(worktree, ['update-ref', ref, sha]);
}
