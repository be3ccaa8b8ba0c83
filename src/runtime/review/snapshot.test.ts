import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotCommit } from './snapshot.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('snapshotCommit', () => {
  it('sees a same-size edit made in the second the index was written, and leaves the index alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-snap-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 't@example.com');
    git(dir, 'config', 'user.name', 't');
    writeFileSync(join(dir, 'README.md'), '# start\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'first');
    // Same size, written right after the commit: only git's racy-entry check tells it changed.
    writeFileSync(join(dir, 'README.md'), 'changed\n');
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    await new Promise((r) => setTimeout(r, 1100));
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const sha = await snapshotCommit(dir);
    expect(sha).not.toBe(head);
    expect(git(dir, 'show', `${sha}:README.md`)).toBe('changed\n');
    expect(git(dir, 'show', `${sha}:new.txt`)).toBe('untracked\n');
    expect(git(dir, 'rev-parse', `${sha}^`).trim()).toBe(head);
    // The same worktree on the same HEAD is the same commit, a second later too.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await snapshotCommit(dir)).toBe(sha);
    expect(git(dir, 'status', '--porcelain')).toBe(' M README.md\n?? new.txt\n');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    git(dir, 'checkout', '-q', '--', 'README.md');
    git(dir, 'clean', '-qfd');
    expect(await snapshotCommit(dir)).toBe(head);
  });
});
