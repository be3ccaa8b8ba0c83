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

/** The repository's top folder, or null when the path is not inside a git work tree. */
export async function repoTopLevel(path: string): Promise<string | null> {
  const r = await git(path, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function hasCommit(top: string): Promise<boolean> {
  return (await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).code === 0;
}

export async function currentBranch(top: string): Promise<string | null> {
  const r = await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function remoteUrl(top: string, remote = 'origin'): Promise<string | null> {
  const r = await git(top, ['remote', 'get-url', remote]);
  return r.code === 0 ? r.stdout.trim() : null;
}
