import { mkdirSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { AccessFile } from '../contract/config/access.js';
import {
  defaultWorkerName,
  MIN_SILENCE_MS,
  SILENCE_MS,
  type ProcessIdentity,
} from '../runtime/engine/process-registry.js';
import { removeLeftovers } from '../runtime/chain-test/run-chain-test.js';
import type { HomePaths } from '../runtime/home/paths.js';
import type { PreparedHome } from '../runtime/home/prepare-home.js';
import { openStore, type Store } from '../store/database.js';
import type { Lease } from '../store/lease.js';
import { noticeOnce } from '../store/meta.js';
import { needsFirstScan } from '../store/search.js';
import { parseAdvertise, redactUrl, storeTarget } from './addresses.js';
import type { Services } from './compose.js';
import { leaderDuties } from './leader-duties.js';
import { logStream } from './log-format.js';

/*
 * The steps of a start that startServer (main.ts) runs in order: where to listen and who this
 * process is, the store, the listen itself, and what a serving process runs beside the API.
 */

const DEFAULT_BIND = '127.0.0.1';
const DEFAULT_PORT = 8765;

export function makeLogger(paths: HomePaths, toStderr: boolean): Logger {
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  const file = pino.destination({ dest: paths.serverLogPath, mkdir: true, sync: true, mode: 0o600 });
  const streams: pino.StreamEntry[] = [{ stream: file }];
  if (toStderr) streams.push({ stream: logStream(process.stderr, process.env.JIG_LOG_FORMAT) });
  return pino(
    {
      level: process.env.JIG_LOG_LEVEL ?? 'info',
      // Tokens and passwords never reach a log line.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
        censor: '[redacted]',
      },
    },
    pino.multistream(streams),
  );
}

function parsePort(value: string | undefined, from: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${from} must be a port number from 0 to 65535 (got ${value})`);
  return n;
}

/** JIG_WORKER_SILENCE: whole seconds, from MIN_SILENCE_MS up to an hour. */
function parseSilence(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_SILENCE_MS / 1000 || n > 3600)
    throw new Error(
      `JIG_WORKER_SILENCE must be whole seconds from ${MIN_SILENCE_MS / 1000} to 3600 (got ${value})`,
    );
  return n;
}

/** What `jig serve` was asked to be, before anything is opened. */
export interface Asked {
  host?: string | undefined;
  port?: number | undefined;
  worker?: boolean | undefined;
  name?: string | undefined;
  noWork?: boolean | undefined;
  slots?: number | undefined;
  /** `--silence`, in seconds. */
  silence?: number | undefined;
  advertise?: string | undefined;
}

/** Where this process listens, which store it opens, and who it is among those sharing it. */
export interface Settled {
  bind: string;
  port: number;
  advertise: string | null;
  target: string;
  identity: ProcessIdentity;
}

/** Flags, then the environment, then access.yaml; a worker and --no-work need a shared store. */
export function settle(asked: Asked, env: NodeJS.ProcessEnv, paths: HomePaths, access: AccessFile): Settled {
  const role = asked.worker ? 'worker' : 'serve';
  // A worker's port is for its own tasks' calls: loopback, any free port, unless told otherwise.
  const bind =
    asked.host ??
    (role === 'worker' ? DEFAULT_BIND : ((env.JIG_HOST?.trim() || undefined) ?? access.bind ?? DEFAULT_BIND));
  const port =
    asked.port ??
    (role === 'worker' ? 0 : (parsePort(env.JIG_PORT, 'JIG_PORT') ?? access.port ?? DEFAULT_PORT));
  const target = storeTarget(env, access.database, paths.dbPath);
  const shared = /^postgres(ql)?:\/\//i.test(target);
  if (role === 'worker' && !shared)
    throw new Error(
      'a worker shares a PostgreSQL store with jig serve: set JIG_DATABASE_URL (docs/scale-out.md)',
    );
  if (asked.noWork && !shared)
    throw new Error(
      '--no-work leaves the items to workers, which need a PostgreSQL store (JIG_DATABASE_URL)',
    );
  return {
    bind,
    port,
    advertise: parseAdvertise(asked.advertise ?? env.JIG_ADVERTISE_URL),
    target,
    identity: {
      name: asked.name?.trim() || defaultWorkerName(env),
      role,
      takesWork: !asked.noWork,
      slots: asked.slots ?? null,
      silenceMs: (asked.silence ?? parseSilence(env.JIG_WORKER_SILENCE) ?? SILENCE_MS / 1000) * 1000,
    },
  };
}

/** The store, migrated, and the notices of the home's preparation told (once where they stand). */
export async function openHomeStore(
  target: string,
  prepared: PreparedHome,
  paths: HomePaths,
  log: Logger,
): Promise<Store> {
  const store = await openStore(target, undefined, {
    onError: (err) => log.warn({ err }, 'checkpoints of the database log are back on the event loop'),
  });
  if (store.kind === 'postgres') log.info({ database: redactUrl(target) }, 'store: PostgreSQL');
  if (store.backupPath) log.info({ backup: store.backupPath }, 'copied the database before migrating it');
  for (const n of prepared.notices) {
    // Moves happen once by nature; a standing condition (a steering/ folder) is told once per home.
    if (!n.standing || (await noticeOnce(store, n.key))) log[n.level]({ notice: n.key }, n.message);
  }
  if (prepared.seeded.length > 0)
    log.info({ files: prepared.seeded, dir: paths.configDir }, 'seeded configuration');
  return store;
}

/** Listens, answering a port in use or an address this machine lacks in words; the port taken. */
export async function listenOn(app: FastifyInstance, bind: string, port: number): Promise<number> {
  try {
    await app.listen({ host: bind, port });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`port ${port} on ${bind} is already in use; pick another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new Error(`cannot bind ${bind}: no such address on this machine`);
    throw err;
  }
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/** The address a person's browser or a task uses for a bind (a wildcard bind is reached on loopback). */
export function localUrl(bind: string, port: number): string {
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`;
}

/**
 * What a serving process runs beside the API: the search index and the add-ons' upkeep here, and
 * the duties one serve at a time leads (at once on SQLite; on PostgreSQL whoever holds the lock).
 */
export async function serveBeside(s: Services): Promise<Lease> {
  const { search, addons, schedules, feedback, beads, notifier, intake, engine, log } = s;
  // What a chain test cut short by a stop of this server left (its own server, its home) goes.
  removeLeftovers(s.paths.runDir);
  search.start();
  await search.indexTemplates();
  // A home older than the index (or one whose index was lost) is scanned once, in the background.
  if (await needsFirstScan(s.store.db)) search.reindex(null);
  addons.start();
  const duties = leaderDuties(log, [
    { name: 'schedules', start: () => schedules.start(), stop: () => schedules.stop() },
    // The comment on an ended item is queued before its close: feedback subscribes first.
    { name: 'tracker comments', start: () => feedback.start(), stop: () => feedback.stop() },
    {
      name: 'tracker closes',
      start: () => {
        beads.start();
        // Items that ended while no one led are settled; not awaited: an unreachable tracker
        // must not hold the start up, and the shared queue orders it.
        void beads.sweep();
      },
      stop: () => beads.stop(),
    },
    { name: 'notifications', start: () => notifier.start(), stop: () => notifier.stop() },
    { name: 'recordings', start: () => s.autoRecord.start(), stop: () => s.autoRecord.stop() },
    { name: 'auto-intake', start: () => intake.start(), stop: () => intake.stop() },
    { name: 'wall clocks and forge polls', start: () => engine.lead(true), stop: () => engine.lead(false) },
  ]);
  return s.store.lead(duties, (err) =>
    log.warn({ err }, 'leadership: the lock connection failed; trying again'),
  );
}
