import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restartServer } from '../../contract/routes/apply.js';
import type { HealthAnswer } from '../../contract/health.js';
import { getHealth } from '../../client/admin.js';
import { jigHome } from '../../client/discover.js';
import { ApiError, JigClient, UnreachableError } from '../../client/http.js';
import { listItems } from '../../client/items.js';
import { isAlive, isRecordedProcess, readLocalServer } from '../../client/local-server.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, runVerb } from '../output.js';
import { packageFile } from '../package-files.js';
import { serveForeground } from './serve-actions.js';
import { confirm } from '../confirm.js';

/** The CLI's own entry point, which a detached server runs. */
export const jigBinPath = packageFile('bin/jig.js');

/** A stop waits past the server's own 10 s deadline before it gives up. */
const STOP_WAIT_MS = 15_000;
const START_WAIT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function urlOf(bind: string, port: number): string {
  const host = bind === '0.0.0.0' ? '127.0.0.1' : bind === '::' ? '::1' : bind;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function healthAt(url: string): Promise<HealthAnswer | null> {
  try {
    return await getHealth(new JigClient({ url }));
  } catch {
    return null;
  }
}

/** The health of this home's server, or null when none answers. */
async function ownServer(): Promise<{ health: HealthAnswer; url: string } | null> {
  const rec = readLocalServer();
  if (!rec || !isAlive(rec.pid) || rec.port === null) return null;
  const url = urlOf(rec.bind ?? '127.0.0.1', rec.port);
  const health = await healthAt(url);
  return health && health.pid === rec.pid ? { health, url } : null;
}

/**
 * Stops the server that owns this home: SIGTERM to the pid in its pid file, and only once that pid
 * is known to be this server — it answers health with that pid, or (not answering, say while it
 * starts or hangs) /proc gives it the start time the pid file recorded. A pid reused by another
 * process since fails both and is never signalled.
 */
export async function stopOwnServer(): Promise<{ pid: number } | { error: string }> {
  const rec = readLocalServer();
  if (!rec || !isAlive(rec.pid)) return { error: `no Jig server runs on ${jigHome()}` };
  const answered =
    rec.port !== null && (await healthAt(urlOf(rec.bind ?? '127.0.0.1', rec.port)))?.pid === rec.pid;
  if (!answered && !isRecordedProcess(rec))
    return {
      error: `pid ${rec.pid} in ${rec.pidPath} does not answer as a Jig server and is not the process that wrote the file; it was not signalled (stop it yourself if it is one)`,
    };
  process.kill(rec.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isAlive(rec.pid)) {
    if (Date.now() > deadline) return { error: `pid ${rec.pid} did not stop within ${STOP_WAIT_MS / 1000}s` };
    await sleep(100);
  }
  return { pid: rec.pid };
}

/** The last lines of a log, to show why a detached server did not come up. */
function tail(path: string, lines = 8): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Starts `jig serve` in the background, its output in run/logs/start.log, and waits until it answers. */
export async function startDetached(opts: {
  host?: string;
  port?: number;
}): Promise<{ url: string; pid: number; log: string } | { error: string }> {
  const logsDir = join(jigHome(), 'run', 'logs');
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const log = join(logsDir, 'start.log');
  const fd = openSync(log, 'a', 0o600);
  const args = [jigBinPath, 'serve'];
  if (opts.host !== undefined) args.push('--host', opts.host);
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    // Not the caller's cwd: that may be a worktree removed while the server still runs.
    cwd: jigHome(),
    env: process.env,
  });
  closeSync(fd);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined)
      return { error: `the server exited (${exited}) before it listened:\n${tail(log)}` };
    const rec = readLocalServer();
    if (rec && rec.pid === child.pid && rec.port !== null) {
      const url = urlOf(rec.bind ?? '127.0.0.1', rec.port);
      if ((await healthAt(url))?.pid === child.pid) return { url, pid: child.pid, log };
    }
    await sleep(100);
  }
  return { error: `the server did not answer within ${START_WAIT_MS / 1000}s; see ${log}` };
}

export async function restart(opts: { yes?: boolean }): Promise<number> {
  if (!opts.yes && process.stdin.isTTY !== true) {
    process.stderr.write(
      'jig: admin restart asks before restarting and there is no terminal to ask on; pass -y to restart\n',
    );
    return EXIT_USAGE;
  }
  const client = new JigClient();
  let health: HealthAnswer;
  try {
    health = await getHealth(client);
  } catch (err) {
    if (!(err instanceof UnreachableError)) throw err;
    process.stderr.write(
      `jig: no Jig server runs at ${client.server.url}; start one with \`jig admin start\`\n`,
    );
    return EXIT_FAIL;
  }
  const running = await listItems(client, { status: 'running,queued' });
  if (running.items.length > 0) {
    const lines = running.items.map((i) => `  ${i.id}  ${i.status}  ${i.title}`);
    process.stderr.write(
      `${running.items.length} item(s) running; they carry on after the restart:\n${lines.join('\n')}\n`,
    );
    if (!opts.yes && !(await confirm('restart the server now? [y/N] '))) {
      process.stderr.write('jig: not restarted\n');
      return EXIT_FAIL;
    }
  }
  const asked = await client.send(restartServer);
  if (asked.status === 202) {
    // A service manager starts the server again: wait for a new pid to answer.
    const deadline = Date.now() + START_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(200);
      const now = await healthAt(client.server.url);
      if (now && now.pid !== health.pid) {
        process.stdout.write(
          `restarted the Jig server (pid ${health.pid} → ${now.pid}) at ${client.server.url}\n`,
        );
        return EXIT_OK;
      }
    }
    process.stderr.write(
      `jig: the server stopped but did not answer again within ${START_WAIT_MS / 1000}s\n`,
    );
    return EXIT_FAIL;
  }
  // No service manager would start it again: stop it and start it here, on the same address.
  const own = await ownServer();
  if (!own || own.health.pid !== health.pid) {
    process.stderr.write(
      `jig: ${asked.body.detail}; the server at ${client.server.url} is not the one of ${jigHome()}, so it is not restarted from here\n`,
    );
    return EXIT_FAIL;
  }
  const stopped = await stopOwnServer();
  if ('error' in stopped) throw new Error(stopped.error);
  const started = await startDetached({ host: health.bind, port: health.port });
  if ('error' in started) throw new Error(started.error);
  process.stdout.write(`restarted the Jig server (pid ${stopped.pid} → ${started.pid}) at ${started.url}\n`);
  return EXIT_OK;
}

/** `jig admin start`: in the foreground, or with --detach in the background. */
export async function adminStart(opts: { host?: string; port?: number; detach?: boolean }): Promise<void> {
  if (!opts.detach) return serveForeground(opts);
  await runVerb(async () => {
    const own = await ownServer();
    if (own) {
      process.stdout.write(`a Jig server already runs at ${own.url} (pid ${own.health.pid})\n`);
      return EXIT_OK;
    }
    const started = await startDetached(opts);
    if ('error' in started) throw new Error(started.error);
    process.stdout.write(`jig listening on ${started.url} (pid ${started.pid}; output in ${started.log})\n`);
    return EXIT_OK;
  });
}

/** `jig admin stop`. */
export function adminStop(): Promise<void> {
  return runVerb(async () => {
    const r = await stopOwnServer();
    if ('error' in r) {
      process.stderr.write(`jig: ${r.error}\n`);
      return EXIT_FAIL;
    }
    process.stdout.write(`stopped the Jig server (pid ${r.pid})\n`);
    return EXIT_OK;
  });
}

/** `jig admin restart`. */
export function adminRestart(opts: { yes?: boolean }): Promise<void> {
  return runVerb(async () => {
    try {
      return await restart(opts);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        process.stderr.write(`jig: ${err.message}\n`);
        return EXIT_FAIL;
      }
      throw err;
    }
  });
}
