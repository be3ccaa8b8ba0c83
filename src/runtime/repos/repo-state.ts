import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export type RepoPathState = 'git' | 'git_no_commit' | 'not_git' | 'not_dir';

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The git folder of a work tree: `.git` itself, or where a `.git` file (worktree, submodule) points. */
function gitDir(top: string): string | null {
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return null;
  }
  const m = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '');
  if (!m?.[1]) return null;
  const dir = m[1].trim();
  return isAbsolute(dir) ? dir : resolve(top, dir);
}

/** A linked worktree keeps its refs in the common folder it names. */
function commonDir(dir: string): string {
  const common = readText(join(dir, 'commondir'))?.trim();
  return common ? resolve(dir, common) : dir;
}

/**
 * What a repo path is, read from the files alone (synchronous, no git process: a settings draft's
 * result asks this for every repo on every answer): not a folder, a folder that is no work tree's
 * top, a repository whose HEAD names no commit yet, or a repository with one.
 */
export function repoPathState(path: string): RepoPathState {
  try {
    if (!statSync(path).isDirectory()) return 'not_dir';
  } catch {
    return 'not_dir';
  }
  const dir = gitDir(path);
  if (!dir) return 'not_git';
  const head = readText(join(dir, 'HEAD'))?.trim() ?? '';
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return /^[0-9a-f]{40,64}$/.test(head) ? 'git' : 'git_no_commit';
  const common = commonDir(dir);
  if (existsSync(join(dir, ref)) || existsSync(join(common, ref))) return 'git';
  const packed = readText(join(common, 'packed-refs')) ?? '';
  return packed.split('\n').some((l) => l.endsWith(` ${ref}`)) ? 'git' : 'git_no_commit';
}
