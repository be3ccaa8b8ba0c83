import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

/** `--spec FILE` names a file inside the repository; the API takes its path relative to the repo. */
export function inRepo(file: string, repo: string): string {
  const real = realpathSync(resolve(file));
  const root = realpathSync(repo);
  if (real !== root && !real.startsWith(root + sep)) throw new Error(`${file} is not inside ${repo}`);
  return relative(root, real);
}
