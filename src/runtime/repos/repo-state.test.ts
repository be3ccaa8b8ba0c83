import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPathState } from './repo-state.js';

const root = mkdtempSync(join(tmpdir(), 'jig-repo-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' });

describe('repoPathState', () => {
  it('tells a missing path, a file, a plain folder, an empty repository and one with a commit apart', () => {
    writeFileSync(join(root, 'file'), 'x');
    mkdirSync(join(root, 'plain'));
    mkdirSync(join(root, 'empty'));
    git(join(root, 'empty'), 'init', '-q');
    mkdirSync(join(root, 'full'));
    git(join(root, 'full'), 'init', '-q');
    git(join(root, 'full'), 'commit', '-q', '--allow-empty', '-m', 'one');
    expect(repoPathState(join(root, 'nope'))).toBe('not_dir');
    expect(repoPathState(join(root, 'file'))).toBe('not_dir');
    expect(repoPathState(join(root, 'plain'))).toBe('not_git');
    expect(repoPathState(join(root, 'empty'))).toBe('git_no_commit');
    expect(repoPathState(join(root, 'full'))).toBe('git');
  });

  it('follows packed refs and a linked worktree', () => {
    const full = join(root, 'full');
    git(full, 'pack-refs', '--all');
    expect(repoPathState(full)).toBe('git');
    git(full, 'worktree', 'add', '-q', join(root, 'wt'));
    expect(repoPathState(join(root, 'wt'))).toBe('git');
  });
});
