import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { isAlive, isSameProcess, processStartTime } from '../process/proc-info.js';

/**
 * Runs the task, then writes its exit code to the file named by $0, atomically (temp + mv), so a
 * server that adopts the process after a restart, and so cannot reap it, still learns how it ended.
 */
const WRAPPER = 'RC=0; "$@" || RC=$?; printf %s "$RC" > "$0.tmp" && mv "$0.tmp" "$0"; exit "$RC"';

export interface LaunchSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  logPath: string;
  exitPath: string;
}

export interface Launched {
  pid: number;
  startTime: string | null;
  /** Resolves when the wrapper exits (only for a process this server started). */
  exited: Promise<void>;
}

/**
 * Starts a task detached in its own process group, stdin from /dev/null, output appended to its
 * log. The server holds no pipe to it, so the task outlives a stop or crash of the server.
 */
export function launch(spec: LaunchSpec): Launched {
  const log = openSync(spec.logPath, 'a', 0o600);
  try {
    const child = spawn('/bin/sh', ['-c', WRAPPER, spec.exitPath, ...spec.argv], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${spec.argv[0] ?? 'the task'}`);
    return { pid: child.pid, startTime: processStartTime(child.pid), exited };
  } finally {
    closeSync(log);
  }
}

/** Resolves once the process is gone (for a process adopted after a restart: polled). */
export async function waitGone(pid: number, startTime: string | null, pollMs = 500): Promise<void> {
  while (isSameProcess(pid, startTime)) await new Promise((r) => setTimeout(r, pollMs));
}

/** The exit code the wrapper wrote, or null when it never finished. */
export function readExitCode(exitPath: string): number | null {
  try {
    if (!existsSync(exitPath)) return null;
    const n = Number(readFileSync(exitPath, 'utf8').trim());
    return Number.isInteger(n) ? n : null;
  } catch {
    return null;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a task's whole process group: SIGTERM, then SIGKILL after the grace period for whatever is
 * left. Also used after a task exits, to end background jobs it left behind.
 */
export async function endGroup(pid: number, graceMs = 10_000): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    if (!groupAlive(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return isAlive(pid);
  }
}
