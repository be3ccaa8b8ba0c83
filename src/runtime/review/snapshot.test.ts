import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotCommit } from './snapshot.js';

/** A minute ago, in whole seconds: the moment the repository's files and index are dated to. */
const past = Math.floor(Date.now() / 1000) - 60;
const dated = { GIT_AUTHOR_DATE: `@${past} +0000`, GIT_COMMITTER_DATE: `@${past} +0000` };

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...dated } });

describe('snapshotCommit', () => {
  it('sees a same-size edit made in the second the index was written, and leaves the index alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-snap-'));
    const readme = join(dir, 'README.md');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 't@example.com');
    git(dir, 'config', 'user.name', 't');
    writeFileSync(readme, '# start\n');
    utimesSync(readme, past, past);
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'first');
    // Same size and the same time as the index records, in the second the index was written (both
    // dated a minute back, so now is seconds later): only git's racy-entry check tells it changed,
    // and only if the snapshot's index keeps the index's own time.
    writeFileSync(readme, 'changed\n');
    utimesSync(readme, past, past);
    utimesSync(join(dir, '.git', 'index'), past, past);
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const sha = await snapshotCommit(dir);
    expect(sha).not.toBe(head);
    expect(git(dir, 'show', `${sha}:README.md`)).toBe('changed\n');
    expect(git(dir, 'show', `${sha}:new.txt`)).toBe('untracked\n');
    expect(git(dir, 'rev-parse', `${sha}^`).trim()).toBe(head);
    // Dated as HEAD is (a minute back), not now: the same worktree on the same HEAD is the same
    // commit, however much later it is read.
    expect(git(dir, 'show', '-s', '--format=%at %ct', sha)).toBe(`${past} ${past}\n`);
    expect(await snapshotCommit(dir)).toBe(sha);
    expect(git(dir, 'status', '--porcelain')).toBe(' M README.md\n?? new.txt\n');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    git(dir, 'checkout', '-q', '--', 'README.md');
    git(dir, 'clean', '-qfd');
    expect(await snapshotCommit(dir)).toBe(head);
  });

  it("stages through a linked worktree's own index, found from a relative gitdir", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-snap-'));
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'a'), { recursive: true });
    mkdirSync(join(repo, 'b'));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 't@example.com');
    git(repo, 'config', 'user.name', 't');
    writeFileSync(join(repo, 'a', 'x.txt'), 'x\n');
    writeFileSync(join(repo, 'b', 'y.txt'), 'y\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'first');
    const wt = join(dir, 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'item', wt);
    // Only a/ checked out: b/y.txt is in the worktree's index (skip-worktree), not on disk. A
    // snapshot staged through any other index would take b/ for deleted.
    git(wt, 'sparse-checkout', 'set', 'a');
    expect(existsSync(join(wt, 'b', 'y.txt'))).toBe(false);
    // The `.git` file as `git worktree add` writes it with worktree.useRelativePaths.
    writeFileSync(join(wt, '.git'), `gitdir: ${relative(wt, join(repo, '.git', 'worktrees', 'wt'))}\n`);
    writeFileSync(join(wt, 'a', 'x.txt'), 'changed\n');
    const sha = await snapshotCommit(wt);
    expect(git(wt, 'show', `${sha}:a/x.txt`)).toBe('changed\n');
    expect(git(wt, 'show', `${sha}:b/y.txt`)).toBe('y\n');
    expect(git(wt, 'rev-parse', `${sha}^`).trim()).toBe(git(wt, 'rev-parse', 'HEAD').trim());
  });

  it('refuses a worktree with no commit yet, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-snap-'));
    git(dir, 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git(dir, 'add', '.');
    await expect(snapshotCommit(dir)).rejects.toThrow(
      new RegExp(`^the snapshot of ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed: fatal: .*HEAD`),
    );
  });
});
