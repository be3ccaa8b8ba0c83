import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempHome } from './server.js';

export const gitEnv = {
  GIT_AUTHOR_NAME: 'Jig Test',
  GIT_AUTHOR_EMAIL: 'test@jig.invalid',
  GIT_COMMITTER_NAME: 'Jig Test',
  GIT_COMMITTER_EMAIL: 'test@jig.invalid',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...gitEnv }, encoding: 'utf8' }).trim();
}

/** A real git repository with the given files committed on `main` (no commit when `commit: false`). */
export function makeRepo(
  files: Record<string, string> = { 'README.md': '# demo\n' },
  opts: { commit?: boolean } = {},
): string {
  const dir = join(tempHome('jig-repo-'), 'repo');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  // One process from the test's own (a fork of it costs more the larger it is): a shell that runs
  // the three git commands.
  const commit = opts.commit !== false ? ' && git add -A && git commit -q -m initial' : '';
  execFileSync('/bin/sh', ['-c', `git init -q -b main${commit}`], {
    cwd: dir,
    env: { ...process.env, ...gitEnv },
  });
  return dir;
}
