/**
 * The task launcher: a small helper process that starts the server's tasks and records how they
 * ended (ADR 0030). A fork copies the forking process's page tables and blocks its event loop until
 * the child has exec'd: about 11 ms from the server, against 5–6 ms from this process, and the
 * server's next writes paid again in copy-on-write faults. The server writes one JSON line per
 * launch on stdin; this answers the pid on stdout, then the exit code once the task ends, which it
 * also writes to the task's exit file, as the shell wrapper did (a restarted server reads it).
 *
 * Only node's built-ins and proc-info: it starts in some 40 ms, and stays small.
 * Once stdin closes (the server stopped or died) it takes no more launches and leaves when the last
 * task it started has ended and its code is written.
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, statSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { createInterface } from 'node:readline';
import { processStartTime } from '../process/proc-info.js';
import {
  LOG_FLAGS,
  parseLaunchRequest,
  WRAPPER,
  type LaunchReply,
  type LaunchRequest,
} from './launch-protocol.js';

// The shell's second try appends to the log the first one created.
const AGAIN_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);
// The exit file sits in the results folder, also writable by tasks: a link put there is not followed.
const EXIT_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

let running = 0;
let closed = false;

function reply(r: LaunchReply): void {
  // The server may be gone (a crash): what it cannot read is lost, the exit file is not.
  try {
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } catch {
    // Nothing to tell.
  }
}
process.stdout.on('error', () => undefined);

/** A shell's code for how a process ended: its exit code, or 128 + the signal that ended it. */
function codeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal !== null ? (osConstants.signals[signal] ?? 0) : 0);
}

function writeExit(path: string, code: number): void {
  try {
    const fd = openSync(path, EXIT_FLAGS, 0o600);
    try {
      writeSync(fd, String(code));
    } finally {
      closeSync(fd);
    }
  } catch {
    // A link or a folder in its place: read as no code, as a wrapper cut short was.
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function leaveIfDone(): void {
  if (closed && running === 0) process.exit(0);
}

function start(req: LaunchRequest, viaShell: boolean): void {
  let log: number;
  try {
    log = openSync(req.log, viaShell ? AGAIN_FLAGS : LOG_FLAGS, 0o600);
  } catch (err) {
    reply({ id: req.id, error: `cannot open the session log: ${(err as Error).message}` });
    return;
  }
  // The shell runs a command that cannot be exec'd (not found, not executable) so it ends as it
  // always did: the shell's message in the log, 127 or 126, its code in the exit file.
  const [file, args] = viaShell
    ? ['/bin/sh', ['-c', WRAPPER, req.exit, ...req.argv]]
    : [req.argv[0] ?? '', req.argv.slice(1)];
  let child;
  try {
    child = spawn(file, args, { cwd: req.cwd, env: req.env, detached: true, stdio: ['ignore', log, log] });
  } catch (err) {
    // Arguments node refuses outright (a NUL byte in one): this launch fails, the helper goes on.
    reply({ id: req.id, error: `could not start ${req.argv[0] ?? 'the task'}: ${(err as Error).message}` });
    return;
  } finally {
    closeSync(log);
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.once('error', (err) => {
      if (!viaShell && isDir(req.cwd)) return start(req, true);
      reply({ id: req.id, error: `could not start ${req.argv[0] ?? 'the task'}: ${err.message}` });
    });
    return;
  }
  running++;
  child.once('error', () => undefined);
  child.once('exit', (code, signal) => {
    const rc = codeOf(code, signal);
    // The shell wrote its own code; a direct launch has this process write it.
    if (!viaShell) writeExit(req.exit, rc);
    reply({ id: req.id, exit: rc });
    running--;
    leaveIfDone();
  });
  // A task that ended at once is a zombie until the loop reaps it, still with its start time.
  reply({ id: req.id, pid, start: processStartTime(pid, { ended: true }) });
}

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const req = parseLaunchRequest(line);
    if (req === null) return;
    if (req.argv.length === 0) {
      reply({ id: req.id, error: 'nothing to run: the command is empty' });
      return;
    }
    start(req, false);
  })
  .on('close', () => {
    closed = true;
    leaveIfDone();
  });
