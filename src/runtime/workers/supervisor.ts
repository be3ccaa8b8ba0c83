import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readInside } from '../fs/safe-read.js';
import { LOG_FLAGS, WRAPPER } from './launch-protocol.js';
import { descendants, isAlive, isSameProcess, processStartTime } from '../process/proc-info.js';

/** The wrapper before 2026-11-30, still found after an upgrade while a task it started runs. */
export const WRAPPER_BEFORE =
  'RC=0; "$@" || RC=$?; printf %s "$RC" > "$0.tmp" && mv "$0.tmp" "$0"; exit "$RC"';

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
  /**
   * Resolves when the task has ended (only for a process this server started): with its exit code
   * when the launcher reported it (also in the exit file), else null and the file says.
   */
  exited: Promise<number | null>;
}

/**
 * Starts a task from the server's own process, through the shell wrapper: detached in its own
 * process group, stdin from /dev/null, output appended to its log. The server holds no pipe to it,
 * so the task outlives a stop or crash of the server. What the launcher (launcher.ts) falls back to.
 */
export function launchHere(spec: LaunchSpec): Launched {
  const log = openSync(spec.logPath, LOG_FLAGS, 0o600);
  try {
    const child = spawn('/bin/sh', ['-c', WRAPPER, spec.exitPath, ...spec.argv], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    const exited = new Promise<null>((resolve) => {
      child.once('exit', () => resolve(null));
      child.once('error', () => resolve(null));
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${spec.argv[0] ?? 'the task'}`);
    return { pid: child.pid, startTime: processStartTime(child.pid, { ended: true }), exited };
  } finally {
    closeSync(log);
  }
}

/**
 * The task launched for a session, found without its pid: how a restart finds a task launched just
 * before a crash, before its pid reached the database. The launcher's task leads a session of its
 * own and was started with `JIG_SESSION_ID`; the shell wrapper's (in-process launches, and every
 * launch before 2026-12-01) is named by its command line (`/bin/sh -c WRAPPER exitPath …`). Null
 * when no such process runs (or /proc is missing).
 */
export function findLaunched(
  exitPath: string,
  sessionId?: string,
): { pid: number; startTime: string | null } | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let best: { pid: number; startTime: string } | null = null;
  for (const d of pids) {
    const pid = Number(d);
    if (!wrapperFor(d, exitPath) && !(sessionId !== undefined && leadsWith(d, `JIG_SESSION_ID=${sessionId}`)))
      continue;
    const startTime = processStartTime(pid);
    // A task that set up a session of its own below it has the variable too: the oldest is the one.
    if (startTime !== null && (best === null || Number(startTime) < Number(best.startTime)))
      best = { pid, startTime };
  }
  return best;
}

function wrapperFor(d: string, exitPath: string): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  return (
    argv[0] === '/bin/sh' &&
    argv[1] === '-c' &&
    (argv[2] === WRAPPER || argv[2] === WRAPPER_BEFORE) &&
    argv[3] === exitPath
  );
}

/** True when the process leads its own session and was started with this environment entry. */
function leadsWith(d: string, entry: string): boolean {
  try {
    const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
    // Field 6, the session, after the command name in parentheses (which may hold anything).
    if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3] !== d) return false;
    return readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/**
 * Resolves once the process is gone (for a process adopted after a restart: polled). The polls pace
 * the look at /proc; they are not the clock.
 */
export async function waitGone(pid: number, startTime: string | null, pollMs = 500): Promise<void> {
  while (isSameProcess(pid, startTime)) await delay(pollMs);
}

/**
 * Waits, at most `graceMs`, for a task's exit file to appear once its process is gone: the process
 * that writes it (the launcher, or the shell wrapper) does so right after the task ends.
 */
export async function exitWritten(exitPath: string, graceMs = 2000, pollMs = 50): Promise<void> {
  for (let waited = 0; waited < graceMs && !existsSync(exitPath); waited += pollMs) await delay(pollMs);
}

/** How often a process group being ended is looked at again. */
const END_POLL_MS = 100;

/** An exit code is a few digits; anything longer is not one. */
const EXIT_MAX_BYTES = 64;

/**
 * The exit code the wrapper wrote, or null when it never finished. The file sits in the results
 * folder, which tasks can write: it is read like a result file (no FIFO, no link out, a cap).
 */
export function readExitCode(exitPath: string): number | null {
  const file = readInside(dirname(exitPath), basename(exitPath), {
    maxBytes: EXIT_MAX_BYTES,
    rootName: 'results folder',
  });
  if (!file.ok) return null;
  const text = file.bytes.toString('utf8').trim();
  return /^-?\d+$/.test(text) ? Number(text) : null;
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** A process the task started, remembered with its start time (a pid may be reused later). */
export interface Known {
  pid: number;
  start: string;
  pgid: number;
}

/**
 * Ends a task's whole process group and every process it started, even those that moved to a
 * session of their own: SIGTERM, then SIGKILL after the grace period for whatever is left. Also
 * used after a task exits, to end background jobs it left behind (`known`: descendants seen while
 * it ran, since an orphan can no longer be found through its parent).
 */
export async function endGroup(
  pid: number,
  graceMs = 10_000,
  known: readonly Known[] = [],
  leaderStart?: string | null,
): Promise<void> {
  const tree = new Map<number, Known>();
  const add = (list: readonly Known[]): void => {
    for (const k of list) if (!tree.has(k.pid)) tree.set(k.pid, k);
  };
  // Children are found through their parent, so only while the leader runs: once it has exited
  // they belong to init (`known` has what it started), and its pid may be another process's. With
  // its start time, a leader that is gone costs no look through every process in /proc, the
  // largest piece of the engine's own CPU between two tasks (issue 43).
  const scan = (): Known[] =>
    leaderStart === undefined || isSameProcess(pid, leaderStart) ? descendants(pid) : [];
  add(known);
  add(scan());
  const live = (): Known[] => [...tree.values()].filter((k) => isSameProcess(k.pid, k.start));
  const signalAll = (signal: NodeJS.Signals): boolean => {
    let any = signalGroup(pid, signal);
    for (const k of live()) {
      // Its own group when it leads one (a setsid'd command and what it started), else itself.
      if (k.pgid === k.pid) any = signalGroup(k.pid, signal) || any;
      try {
        process.kill(k.pid, signal);
        any = true;
      } catch {
        // Gone meanwhile.
      }
    }
    return any;
  };
  if (!signalAll('SIGTERM')) return;
  // The grace is counted in looks, not read from the wall clock (pacing a real process, not time).
  for (let waited = 0; waited < graceMs; waited += END_POLL_MS) {
    await delay(END_POLL_MS);
    add(scan());
    if (!groupAlive(pid) && live().length === 0) return;
  }
  signalAll('SIGKILL');
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return isAlive(pid);
  }
}
