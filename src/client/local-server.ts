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

/** Linux only: whether the process runs Jig's CLI (a recycled pid would run something else). */
export function looksLikeJig(pid: number): boolean | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((a) => /(^|\/)jig(\.js)?$/.test(a));
  } catch {
    return null;
  }
}
