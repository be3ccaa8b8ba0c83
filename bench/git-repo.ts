import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A throwaway git repository with one commit on `main`, for benchmarks to connect. */
/** The identity benchmark commits are made with. */
export const benchGitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@jig.invalid',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@jig.invalid',
};

export function benchRepo(root: string): string {
  const dir = join(root, 'repo');
  mkdirSync(dir);
  const env = benchGitEnv;
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: dir, env });
  return dir;
}
