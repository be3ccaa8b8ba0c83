import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { resolveHomePaths } from '../runtime/home/paths.js';
import { prepareHome } from '../runtime/home/prepare-home.js';
import { PidLock } from '../runtime/home/pid-lock.js';
import { writeFileAtomic } from '../runtime/home/atomic-write.js';
import { readAccess } from '../runtime/config/access.js';
import { installedVersion } from '../runtime/package-root.js';
import { AddonsService } from '../runtime/addons/addons-service.js';
import type { Instance } from '../runtime/instance.js';
import type { Store } from '../store/database.js';
import { EventLog } from '../runtime/events/event-log.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import { SearchService } from '../runtime/search/search-service.js';
import { buildApp, type RouteRecord } from './app.js';
import { compose } from './compose.js';
import { exposureOf, type Exposure } from './exposure.js';
import { parsePathMap } from '../runtime/repos/path-map.js';
import type { Lease } from '../store/lease.js';
import { advertisedUrl } from './addresses.js';
import { listenOn, localUrl, makeLogger, openHomeStore, serveBeside, settle } from './start-steps.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** Log to stderr as well as server.log (the CLI does; in-process tests do not). */
  logToStderr?: boolean;
  /** How to restart for `POST /api/apply/restart`: the process owner stops and exits with the code. */
  onRestart?: (exitCode: number) => void;
  /** The clock the pollers read (tests pass a ManualClock); the real one by default. */
  clock?: Clock;
  /**
   * `jig serve --worker`: claims and walks items from a shared PostgreSQL store; no board, no
   * schedules or intake; listens on loopback for its own tasks only (docs/scale-out.md).
   */
  worker?: boolean;
  /** `--name` (else JIG_WORKER_NAME, else host:pid). */
  name?: string;
  /** `jig serve --no-work`: API and board only; workers walk the items. */
  noWork?: boolean;
  /** `--slots`: the most items this process walks at once (max_concurrent still holds overall). */
  slots?: number;
  /** `--silence` (else JIG_WORKER_SILENCE, else 60): seconds before a silent process's items move. */
  silence?: number;
  /** `--repo-map FROM=TO` (else JIG_REPO_MAP, pairs split by `,`): repos checked out elsewhere here. */
  repoMap?: string[];
  /** `--advertise URL` (else JIG_ADVERTISE_URL): where the other processes sharing the store reach this one. */
  advertise?: string;
}

export interface RunningServer {
  inst: Instance;
  app: FastifyInstance;
  url: string;
  /** Every route registered, for checks such as the OpenAPI completeness test. */
  routes: RouteRecord[];
  close(): Promise<void>;
  /** Who can reach the port, and what to fix when other machines can (the start line says it). */
  exposure: Exposure;
}

/**
 * Everything a serving process needs: home prepared under the lock, logger, store migrated, the
 * services composed (compose.ts), the app built and listening, running work taken up again.
 */
export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const env = opts.env ?? process.env;
  const paths = resolveHomePaths(env);
  mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  const clock = opts.clock ?? systemClock();
  const lock = PidLock.acquire(paths.pidPath, clock);
  let log: Logger | undefined;
  let store: Store | undefined;
  try {
    // The knob is the process's: an in-process server given its own variables (a test, a
    // benchmark) still follows the one its process was started with.
    const prepared = prepareHome(paths, {
      sandboxDefault: env.JIG_SANDBOX_DEFAULT ?? process.env.JIG_SANDBOX_DEFAULT,
    });
    log = makeLogger(paths, opts.logToStderr ?? false);
    const { access, error: accessError } = readAccess(paths.configDir);
    if (accessError) log.warn({ error: accessError }, 'access.yaml does not load; using loopback defaults');
    const { bind, port, advertise, target, identity } = settle(opts, env, paths, access);
    store = await openHomeStore(target, prepared, paths, log);
    const events = new EventLog(store, (err) => log?.error({ err }, 'an event listener failed'));
    await events.init();
    const repoMap = parsePathMap(
      opts.repoMap ?? (env.JIG_REPO_MAP ?? '').split(',').filter((p) => p.trim() !== ''),
    );
    const s = compose({
      ...{ paths, env, log, store, events, access, bind, identity, repoMap },
      clock,
      version: installedVersion(),
      ...(opts.onRestart ? { onRestart: opts.onRestart } : {}),
    });
    const { app, routes } = await buildApp(s);
    s.port = await listenOn(app, bind, port);
    lock.update({ bind, port: s.port });
    // Outlives the server (the pid file does not): a CLI run after it stopped still looks where it
    // was, not on the default port (client/discover.ts).
    writeFileAtomic(paths.lastPortPath, JSON.stringify({ bind, port: s.port }), 0o600);
    // Sessions that outlived the last server are adopted, and running items continue (ADR 0003).
    s.reattach = await s.engine.recover();
    // Requests about the items this process walks are forwarded here by the others (forward.ts).
    await s.engine.advertise(advertisedUrl(advertise, bind, s.port), s.peerToken);
    // An archive or abandon cut off before its worktree and branch were removed finishes now.
    const reclaimed = identity.role === 'serve' ? await s.items.reclaimPending() : 0;
    if (reclaimed > 0) log.info({ items: reclaimed }, 'finished reclaiming worktrees');
    if (s.reattach.scanned > 0 || s.reattach.resumed_work_items > 0) log.info(s.reattach, 'reattached');
    const exposure = exposureOf(bind, access);
    for (const warning of exposure.warnings) log.warn({ bind }, `bound off loopback: ${warning}`);
    const shared = store.kind === 'postgres';
    const who = { worker: identity.name, role: identity.role, takes_work: identity.takesWork };
    log.info(
      { bind, port: s.port, pid: process.pid, home: paths.home, version: s.version, ...(shared ? who : {}) },
      identity.role === 'worker' ? 'jig worker claiming work' : 'jig listening',
    );
    const url = localUrl(bind, s.port);
    if (identity.role === 'worker')
      return { inst: s, app, url, routes, close: closer(s, app, lock, null), exposure };
    const pollers: Pollers = { search: s.search, addons: s.addons, lease: null };
    const close = closer(s, app, lock, pollers);
    pollers.lease = await serveBeside(s);
    return { inst: s, app, url, routes, close, exposure };
  } catch (err) {
    if (store) await store.close();
    lock.release();
    log?.flush();
    throw err;
  }
}

/** What a serving process started beside the engine (a worker starts none of them). */
interface Pollers {
  search: SearchService;
  addons: AddonsService;
  /** The leader's duties (schedules, intake, notifications, trackers, clocks) end with it. */
  lease: Lease | null;
}

function closer(
  inst: Instance,
  app: FastifyInstance,
  lock: PidLock,
  pollers: Pollers | null,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      if (pollers) {
        // First: no schedule files an item while the server closes, and no timer outlives it.
        await pollers.lease?.release();
        await pollers.search.stop();
        await pollers.addons.stop();
      }
      // The engine stops walking; the task processes themselves keep running, to be adopted.
      await inst.engine.retire();
      inst.engine.close();
      if (!(await inst.engine.settled())) inst.log.warn('a walk was still running as the server stopped');
      // Long polls on permission asks answer now rather than hold the close.
      inst.asks.close();
      await app.close();
      // Units of work already queued commit; none can start once the store is closing.
      await inst.events.close();
      await inst.store.close();
      lock.release();
      inst.log.info('jig stopped');
      inst.log.flush();
    })());
}
