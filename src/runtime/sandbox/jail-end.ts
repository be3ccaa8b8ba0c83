import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { isSameProcess } from '../process/proc-info.js';
import { removeArgs } from './container-args.js';
import { planFiles } from './plan.js';
import { itemHomeDir, sandboxDir } from './prepare.js';

export { refusalEvents } from './refusals.js';

const run = promisify(execFile);

const Oom = z.object({ memory: z.string().nullable() });
const Container = z.object({
  kind: z.string(),
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
 * A session the container runtime killed out of memory (the sandbox program wrote `oom.json`, from
 * outside the jail): its status and the note that names the limit. Null for any other ending.
 */
export function oomEnding(
  runDir: string,
  sessionId: string,
): { status: 'oom_killed'; result: null; note: string } | null {
  const r = Oom.safeParse(readJson(planFiles(sandboxDir(runDir, sessionId)).oom));
  if (!r.success) return null;
  const limit = r.data.memory === null ? 'its memory limit' : `its memory limit (${r.data.memory})`;
  return { status: 'oom_killed', result: null, note: `killed out of memory: the sandbox reached ${limit}` };
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
