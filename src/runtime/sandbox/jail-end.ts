import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { isSameProcess } from '../process/proc-info.js';
import { removeArgs } from './container-args.js';
import { planFiles } from './plan.js';
import { writeBackLogins } from './logins.js';
import { itemHomeDir, sandboxDir } from './prepare.js';

export { refusalEvents } from './refusals.js';

const run = promisify(execFile);

const Oom = z.object({ memory: z.string().nullable() });
const Unstarted = z.object({ message: z.string() });
const Container = z.object({
  kind: z.enum(['podman', 'docker']),
  program: z.string().min(1),
  name: z.string().min(1),
  runtimeEnv: z.record(z.string(), z.string()),
  /** The container's first process on the host, once the sandbox program saw it run. */
  pid: z.number().int().nullable(),
  start: z.string().nullable(),
});

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * How a jailed session ended when its jail decided it (files the sandbox program wrote outside the
 * jail): killed out of memory (its status and the limit), or a jail that never started (a config
 * problem with the runtime's words: an image missing, a runtime refusing). Null otherwise.
 */
export function jailEnding(
  runDir: string,
  sessionId: string,
): { status: 'oom_killed' | 'config_error'; result: null; note: string } | null {
  const f = planFiles(sandboxDir(runDir, sessionId));
  const oom = Oom.safeParse(readJson(f.oom));
  if (oom.success) {
    const m = oom.data.memory;
    const limit = m === null ? 'its memory limit' : `its memory limit (${m})`;
    return { status: 'oom_killed', result: null, note: `killed out of memory: the sandbox reached ${limit}` };
  }
  const failed = Unstarted.safeParse(readJson(f.unstarted));
  if (failed.success)
    return {
      status: 'config_error',
      result: null,
      note: `its sandbox could not start, so the task never ran: ${failed.data.message}`,
    };
  return null;
}

/**
 * Removes the container a session ran in, if it is still there: the sandbox program removes it as
 * the task ends, but a program killed at once (a budget cap ends the task's group with SIGKILL)
 * leaves it to the runtime's monitor, running. Then, if its first process still runs (podman 4
 * has been seen to drop a container it was still starting from its list and leave it running),
 * that process is killed, which ends everything in the container's PID namespace. Bounded; a
 * container already gone is not an error.
 */
export async function reapContainer(runDir: string, sessionId: string): Promise<void> {
  const c = Container.safeParse(readJson(planFiles(sandboxDir(runDir, sessionId)).container));
  if (!c.success) return;
  await run(c.data.program, removeArgs(c.data.kind, c.data.name), {
    env: c.data.runtimeEnv,
    timeout: 60_000,
  }).catch(() => undefined);
  const { pid, start } = c.data;
  if (pid !== null && start !== null && isSameProcess(pid, start)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * Removes an ended item's sandbox folders: its private HOME and each session's folder (plans hold
 * the credentials' values, 0600). Reclaimed with its worktree; a folder already gone is fine.
 */
export function removeJails(runDir: string, itemId: string, sessionIds: readonly string[]): void {
  rmSync(itemHomeDir(runDir, itemId), { recursive: true, force: true });
  for (const id of sessionIds) rmSync(sandboxDir(runDir, id), { recursive: true, force: true });
}

/** Writes back a login the session's CLI renewed in its jail (logins.ts); what failed, or null. */
export function settleLogins(runDir: string, sessionId: string): Error | null {
  try {
    writeBackLogins(sandboxDir(runDir, sessionId));
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
