import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git without a shell; never throws for a non-zero exit (the caller reads `code`). */
export function git(
  cwd: string,
  args: string[],
  timeoutMs = 30_000,
  env: Record<string, string> = {},
): Promise<GitResult> {
  return run('git', args, cwd, timeoutMs, env);
}

/**
 * Runs a fixed shell script of several git steps as one process (`args` are its `$1`, `$2`, ...,
 * never parsed by the shell): a process the server starts costs a fork of the whole server, its
 * page tables copied on the event loop (some 1.5 ms per 100 MiB of it), while the shell's own forks
 * copy a few hundred KiB. For paths taken on every node run; the script must be a constant.
 */
export function gitScript(
  cwd: string,
  script: string,
  args: string[],
  timeoutMs = 30_000,
  env: Record<string, string> = {},
): Promise<GitResult> {
  return run('/bin/sh', ['-c', script, 'jig-git', ...args], cwd, timeoutMs, env);
}

function run(
  file: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string>,
): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...env },
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 128
          : 0;
        resolve({
          code,
          stdout: stdout.toString(),
          stderr: stderr.toString() || (err && code === 128 ? err.message : ''),
        });
      },
    );
  });
}

/*
 * What probing a repository needs of git, in one shell: its top folder, whether HEAD has a commit,
 * the branch checked out and origin's URL, each ended by a NUL (a path may hold a newline). Nothing
 * at all when the path is in no work tree. Connecting a repository took six git processes, each a
 * fork of the server; every test connects one.
 */
const REPO_FACTS_SCRIPT = `
top=$(git rev-parse --show-toplevel) || exit 0
cd "$top" || exit 1
printf '%s\\0' "$top"
if git rev-parse --verify --quiet 'HEAD^{commit}' >/dev/null; then printf '1\\0'; else printf '0\\0'; fi
printf '%s\\0' "$(git symbolic-ref --quiet --short HEAD)"
printf '%s\\0' "$(git remote get-url origin 2>/dev/null)"
`;

export interface RepoFacts {
  top: string;
  hasCommit: boolean;
  /** The branch checked out; null when HEAD is detached. */
  branch: string | null;
  /** origin's URL as git resolves it (`insteadOf` applied); null without an origin. */
  origin: string | null;
}

/** The facts above for the work tree `path` is in; null when it is in none. */
export async function repoFacts(path: string): Promise<RepoFacts | null> {
  const r = await gitScript(path, REPO_FACTS_SCRIPT, []);
  const [top, commit, branch, origin] = r.stdout.split('\0');
  if (r.code !== 0 || !top || origin === undefined) return null;
  return { top, hasCommit: commit === '1', branch: branch || null, origin: origin || null };
}

/** The repository's top folder, or null when the path is not inside a git work tree. */
export async function repoTopLevel(path: string): Promise<string | null> {
  const r = await git(path, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function currentBranch(top: string): Promise<string | null> {
  const r = await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function remoteUrl(top: string, remote = 'origin'): Promise<string | null> {
  const r = await git(top, ['remote', 'get-url', remote]);
  return r.code === 0 ? r.stdout.trim() : null;
}
