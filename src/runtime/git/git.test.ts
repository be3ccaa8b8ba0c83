import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { git, repoFacts } from './git.js';

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

it("repoFacts: a repository's top, commit, branch and origin from a folder inside it, in one process", async () => {
  // A top folder whose name holds a newline and a trailing space: the facts are NUL-separated.
  const repo = join(realpathSync(dir), 'odd\nname ');
  const run = (...args: string[]) => execFileSync('git', ['-C', repo, ...args]);
  execFileSync('git', ['init', '-q', '-b', 'trunk', repo]);
  mkdirSync(join(repo, 'sub'));
  expect(await repoFacts(join(repo, 'sub'))).toEqual({
    top: repo,
    hasCommit: false,
    branch: 'trunk',
    origin: null,
  });
  run('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one');
  run('remote', 'add', 'origin', 'gh:acme/widgets');
  run('config', 'url.https://github.com/.insteadOf', 'gh:');
  run('checkout', '-q', '--detach');
  expect(await repoFacts(repo)).toEqual({
    top: repo,
    hasCommit: true,
    branch: null,
    origin: 'https://github.com/acme/widgets',
  });
  expect(await repoFacts(dir)).toBeNull();
});
