import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { git } from './git.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jig-git-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A hostile repository can make git itself wait: its config may include a FIFO. Every git command
// Jig runs has a timeout, so a request that runs git is bounded (issue 14, finding 1).
it('ends a git command that waits on a FIFO its config includes, and reports the failure', async () => {
  const repo = join(dir, 'repo');
  execFileSync('git', ['init', '-q', repo]);
  expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0);
  execFileSync('git', ['-C', repo, 'config', 'include.path', join(dir, 'fifo')]);
  const r = await git(repo, ['rev-parse', '--show-toplevel'], 500);
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
});
