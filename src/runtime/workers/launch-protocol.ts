import { constants } from 'node:fs';

/**
 * What the server and its task launcher (launcher-main.ts) say to each other: one JSON object a
 * line each way. Both ends check what they read; neither trusts the other's shape.
 */

/**
 * Runs the task, then writes its exit code to the file named by $0, so a server that adopts the
 * process after a restart, and so cannot reap it, still learns how it ended. The file is read only
 * once the wrapper is gone (`finish`), so a write cut short leaves a file that reads as no code,
 * as no file does. Used when the launcher is not there, and by it for a command that cannot be
 * exec'd (the shell says why in the log and ends 127 or 126, as it always did).
 */
export const WRAPPER = 'RC=0; "$@" || RC=$?; printf %s "$RC" > "$0"; exit "$RC"';

/**
 * How a session's log is opened: new, created by the launch, never through a link or a FIFO
 * something put at the path first (the logs folder is writable by the tasks Jig runs).
 */
export const LOG_FLAGS =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_EXCL |
  (constants.O_NOFOLLOW ?? 0);

export interface LaunchRequest {
  id: number;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The session's log: created by the launch, stdout and stderr both. */
  log: string;
  /** Where the exit code is written when the task ends. */
  exit: string;
}

export type LaunchReply =
  | { id: number; pid: number; start: string | null }
  | { id: number; error: string }
  | { id: number; exit: number };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parse(line: string): Record<string, unknown> | null {
  let v: unknown;
  try {
    v = JSON.parse(line) as unknown;
  } catch {
    return null;
  }
  return isRecord(v) ? v : null;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function stringMap(v: unknown): Record<string, string> | null {
  if (!isRecord(v)) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') return null;
    out[k] = x;
  }
  return out;
}

export function parseLaunchRequest(line: string): LaunchRequest | null {
  const o = parse(line);
  if (o === null) return null;
  const { id, argv, cwd, env, log, exit } = o;
  const vars = stringMap(env);
  if (typeof id !== 'number' || !isStrings(argv) || vars === null) return null;
  if (typeof cwd !== 'string' || typeof log !== 'string' || typeof exit !== 'string') return null;
  return { id, argv, cwd, env: vars, log, exit };
}

export function parseLaunchReply(line: string): LaunchReply | null {
  const o = parse(line);
  if (o === null || typeof o.id !== 'number') return null;
  const id = o.id;
  if (typeof o.pid === 'number' && (typeof o.start === 'string' || o.start === null))
    return { id, pid: o.pid, start: o.start };
  if (typeof o.error === 'string') return { id, error: o.error };
  if (typeof o.exit === 'number') return { id, exit: o.exit };
  return null;
}
