import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jigHome } from './discover.js';

/**
 * The server that owns this machine's Jig home, as its pid file tells: `jig admin stop` signals
 * that pid and no other. (The client reads the file itself: it may not import runtime/.)
 */
export interface LocalServer {
  pid: number;
  bind: string | null;
  port: number | null;
  /** The server's start time as /proc gave it when it wrote the file; null where /proc was missing. */
  startTime: string | null;
  pidPath: string;
}

export function pidPathOf(env: NodeJS.ProcessEnv = process.env): string {
  return join(jigHome(env), 'run', 'jig.pid');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The pid file's record, or null when there is none (or it is not one a server wrote). */
export function readLocalServer(env: NodeJS.ProcessEnv = process.env): LocalServer | null {
  const pidPath = pidPathOf(env);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(pidPath, 'utf8'));
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 1)
    return null;
  return {
    pid: parsed.pid,
    bind: typeof parsed.bind === 'string' ? parsed.bind : null,
    port: typeof parsed.port === 'number' ? parsed.port : null,
    startTime: typeof parsed.start_time === 'string' ? parsed.start_time : null,
    pidPath,
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), read as the
 * server reads it when it writes its pid file (runtime/process/proc-info.ts, which the client may
 * not import). With the pid it names one process for its whole life: a reused pid has another.
 * Null where /proc is missing or the process is gone.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces or ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return null;
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * True only when the pid file's process is provably still the server that wrote it: its recorded
 * start time matches /proc's. Without a recorded start time or /proc, nothing proves it.
 */
export function isRecordedProcess(rec: LocalServer): boolean {
  return rec.startTime !== null && isAlive(rec.pid) && processStartTime(rec.pid) === rec.startTime;
}
