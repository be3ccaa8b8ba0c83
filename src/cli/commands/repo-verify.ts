import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Rehearsal {
  ok: boolean;
  /** What failed, and how, when not ok. */
  failed?: string;
}

function run(command: string, cwd: string): Promise<number> {
  return new Promise((resolve) => {
    // The commands' output goes to stderr: stdout keeps the verb's one-line answer.
    const p = spawn('sh', ['-c', command], { cwd, stdio: ['ignore', process.stderr, process.stderr] });
    p.on('error', () => resolve(127));
    p.on('exit', (code) => resolve(code ?? 1));
  });
}

/**
 * `repo connect --verify`: runs the setup command, then the test command, once, as an item would
 * run them: in a fresh worktree of HEAD (detached, removed afterwards), so the checkout you work
 * in is not touched. The repo's `local_files` are not copied. An empty or undecided command is
 * skipped.
 */
export async function rehearse(repo: string, setup: string | null, tests: string | null): Promise<Rehearsal> {
  const dir = mkdtempSync(join(tmpdir(), 'jig-verify-'));
  const wt = join(dir, 'worktree');
  try {
    execFileSync('git', ['worktree', 'add', '--detach', '-q', wt, 'HEAD'], { cwd: repo, stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { ok: false, failed: `git worktree add failed: ${(err as Error).message.split('\n')[0]}` };
  }
  try {
    for (const [what, command] of [
      ['setup', setup],
      ['tests', tests],
    ] as const) {
      if (!command) continue;
      process.stderr.write(`jig: verify: ${what}: ${command}\n`);
      const code = await run(command, wt);
      if (code !== 0) return { ok: false, failed: `${what} (${command}) exited ${code}` };
    }
    return { ok: true };
  } finally {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: repo, stdio: 'pipe' });
    } catch {
      // Removed below; git prunes the stale record on its next worktree command.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
