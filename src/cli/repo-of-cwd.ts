import { execFileSync } from 'node:child_process';

/** The git checkout the command runs in, which `--repo` defaults to. */
export function repoOfCwd(cwd = process.cwd()): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}
