import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { resolveHomePaths, type HomePaths } from '../runtime/home/paths.js';
import { prepareHome } from '../runtime/home/prepare-home.js';
import { PidLock } from '../runtime/home/pid-lock.js';
import { readAccess } from '../runtime/config/access.js';
import { ConfigState } from '../runtime/config/config-state.js';
import { installedVersion } from '../runtime/package-root.js';
import { AddonsService } from '../runtime/addons/addons-service.js';
import type { Instance } from '../runtime/instance.js';
import { openStore } from '../store/database.js';
import { EventLog } from '../runtime/events/event-log.js';
import { ItemsService } from '../runtime/items/items-service.js';
import { ReposService } from '../runtime/repos/repos-service.js';
import { Engine } from '../runtime/engine/engine.js';
import { ReviewService } from '../runtime/review/review-service.js';
import { DocumentsService } from '../runtime/review/documents-service.js';
import { ReviewsService } from '../runtime/review/reviews-service.js';
import { ThreadsService } from '../runtime/review/threads-service.js';
import { PermissionAsks } from '../runtime/asks/permission-asks.js';
import { PermissionGate } from '../runtime/asks/permission-gate.js';
import { MergeRequestsService } from '../runtime/forge/merge-requests-service.js';
import { join } from 'node:path';
import { stamp, systemClock, type Clock } from '../runtime/clock.js';
import { intakeCronRule, policyTriggerRule } from '../runtime/intake/cron-rules.js';
import { AutoIntake } from '../runtime/intake/auto-intake.js';
import { IssueCloser } from '../runtime/intake/issue-closer.js';
import { IssueFeedback } from '../runtime/intake/issue-feedback.js';
import { TrackerQueue } from '../runtime/intake/tracker-queue.js';
import { Notifier } from '../runtime/notify/notifier.js';
import { NotifySettings } from '../runtime/notify/notify-settings.js';
import { StorageService } from '../runtime/storage/storage-service.js';
import { SearchService } from '../runtime/search/search-service.js';
import { AccessSettings } from '../runtime/config/access-settings.js';
import { indexEvents } from '../runtime/search/entries.js';
import { needsFirstScan } from '../store/search.js';
import { SchedulePoller } from '../runtime/intake/schedule-poller.js';
import { noticeOnce } from '../store/meta.js';
import { buildApp, type RouteRecord } from './app.js';
import { serverLimits } from './limits.js';
import { exposureOf, type Exposure } from './exposure.js';
import { logStream } from './log-format.js';
import { defaultWorkerName } from '../runtime/engine/claims.js';
import { parsePathMap } from '../runtime/repos/path-map.js';
import type { Lease } from '../store/leader.js';
import { leaderDuties } from './leader-duties.js';
import { advertisedUrl, parseAdvertise, redactUrl, storeTarget } from './addresses.js';

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

const DEFAULT_BIND = '127.0.0.1';
const DEFAULT_PORT = 8765;

function makeLogger(paths: HomePaths, toStderr: boolean): Logger {
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

/**
 * Everything a serving process needs, short of listening: home prepared under the lock, logger,
 * store migrated, config loaded, app built. The caller listens and owns `close`.
 */
export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const env = opts.env ?? process.env;
  const paths = resolveHomePaths(env);
  mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  const lock = PidLock.acquire(paths.pidPath);
  let log: Logger | undefined;
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  try {
    const prepared = prepareHome(paths);
    log = makeLogger(paths, opts.logToStderr ?? false);
    const { access, error: accessError } = readAccess(paths.configDir);
    if (accessError) log.warn({ error: accessError }, 'access.yaml does not load; using loopback defaults');

    const role = opts.worker ? 'worker' : 'serve';
    // A worker's port is for its own tasks' calls: loopback, any free port, unless told otherwise.
    const bind =
      opts.host ??
      (role === 'worker'
        ? DEFAULT_BIND
        : ((env.JIG_HOST?.trim() || undefined) ?? access.bind ?? DEFAULT_BIND));
    const port =
      opts.port ??
      (role === 'worker' ? 0 : (parsePort(env.JIG_PORT, 'JIG_PORT') ?? access.port ?? DEFAULT_PORT));

    const advertise = parseAdvertise(opts.advertise ?? env.JIG_ADVERTISE_URL);
    const target = storeTarget(env, access.database, paths.dbPath);
    if (role === 'worker' && !/^postgres(ql)?:\/\//i.test(target))
      throw new Error(
        'a worker shares a PostgreSQL store with jig serve: set JIG_DATABASE_URL (docs/scale-out.md)',
      );
    if (opts.noWork && !/^postgres(ql)?:\/\//i.test(target))
      throw new Error(
        '--no-work leaves the items to workers, which need a PostgreSQL store (JIG_DATABASE_URL)',
      );
    const identity = {
      name: opts.name?.trim() || defaultWorkerName(env),
      role,
      takesWork: !opts.noWork,
      slots: opts.slots ?? null,
    } as const;
    store = await openStore(target);
    if (store.kind === 'postgres') log.info({ database: redactUrl(target) }, 'store: PostgreSQL');
    if (store.backupPath) log.info({ backup: store.backupPath }, 'copied the database before migrating it');
    for (const n of prepared.notices) {
      // Moves happen once by nature; a standing condition (a steering/ folder) is told once per home.
      if (!n.standing || (await noticeOnce(store, n.key))) log[n.level]({ notice: n.key }, n.message);
    }
    if (prepared.seeded.length > 0)
      log.info({ files: prepared.seeded, dir: paths.configDir }, 'seeded configuration');

    const config = new ConfigState(paths.configDir, paths.addonsDir);
    // Crons are read by the dialect's own parser: a bad one refuses intake.yaml (or, when it cannot
    // be read at all, a policy.yaml trigger's file), with the line and column of the fault.
    config.intakeRules = intakeCronRule(paths.configDir);
    config.policyRules = policyTriggerRule(paths.configDir);
    const loaded = config.loadAtStart();
    for (const r of loaded.refused)
      log.warn({ file: r.file, problems: r.problems }, 'config file does not load');

    const events = new EventLog(store, (err) => log?.error({ err }, 'an event listener failed'));
    await events.init();
    const repoMap = parsePathMap(
      opts.repoMap ?? (env.JIG_REPO_MAP ?? '').split(',').filter((p) => p.trim() !== ''),
    );
    const repos = new ReposService(paths.configDir, store, process.cwd(), config, repoMap);
    const items = new ItemsService({
      log,
      store,
      config,
      repos,
      chains: config,
      events,
      attachmentsDir: paths.attachmentsDir,
    });
    // Built here so routes can read it; its timer starts only once the server listens.
    const clock = opts.clock ?? systemClock();
    const schedules = new SchedulePoller({ config, items, store, log, clock });
    const engineRef: { port: number } = { port: 0 };
    // Reviews need the engine (a review decides a gate) and the engine asks reviews whether an
    // approval is refused: bound late, once both exist.
    const late: { reviews: ReviewsService | null } = { reviews: null };
    const review = new ReviewService({
      store,
      log,
      now: () => stamp(clock),
      record: (id) => items.record(id),
      lastReviewed: async (id) => (late.reviews ? late.reviews.lastReviewed(id) : null),
    });
    const engine = new Engine({
      store,
      events,
      config,
      repos,
      paths,
      log,
      port: () => engineRef.port,
      clock,
      onNodeRunEnd: (rec, node) => review.recordAttempt(rec, node),
      approvalRefusal: async (id) => (late.reviews ? late.reviews.mustFixRefusal(id) : null),
      identity,
    });
    const threads = new ThreadsService({
      store,
      events,
      now: () => stamp(clock),
      record: (id) => items.record(id),
    });
    late.reviews = new ReviewsService({
      store,
      events,
      now: () => stamp(clock),
      record: (id) => items.record(id),
      engine,
      threads,
      chainOf: (rec) => rec.chain_definition ?? config.runningChains.get(rec.chain)?.resolved ?? null,
    });
    items.onEnd = (id) => engine.ended(id);
    const intake = new AutoIntake({
      config,
      repos,
      chains: config,
      items,
      start: (id) => engine.resume(id, undefined, 'jig'),
      store,
      log,
      clock,
      env,
    });
    const said = log;
    const queue = new TrackerQueue((err, what) => said.error({ err }, `${what} failed`));
    const trackers = { store, events, log, repos, config, env, queue };
    const beads = new IssueCloser(trackers);
    const feedback = new IssueFeedback(trackers);
    const notifySettings = new NotifySettings(paths.configDir);
    if (notifySettings.problem)
      log.warn({ reason: notifySettings.problem }, 'notify.yaml does not load; no notifications');
    config.onReload(() => {
      const now = notifySettings.reload();
      if (now.problem) said.warn({ reason: now.problem }, 'notify.yaml does not load; no notifications');
    });
    const notifier = new Notifier({ settings: notifySettings, store, events, clock, log });
    const search = new SearchService({ store, events, paths, clock, log });
    events.setIndexer(indexEvents);
    config.onReload(() => {
      search
        .indexTemplates()
        .catch((err: unknown) => said.warn({ err }, 'indexing chains and library failed'));
    });
    const addons = new AddonsService({
      configDir: paths.configDir,
      addonsDir: paths.addonsDir,
      config,
      store,
      clock,
      log,
    });
    const asks = new PermissionAsks({ store, events, clock, record: (id) => items.record(id) });
    const inst: Instance = {
      paths,
      version: installedVersion(),
      startedAt: Date.now(),
      bind,
      port: 0,
      store,
      config,
      access,
      log,
      supervised: Boolean(env.INVOCATION_ID) || env.JIG_SUPERVISED === '1',
      role,
      peerToken: randomBytes(32).toString('base64url'),
      ...(opts.onRestart ? { requestRestart: opts.onRestart } : {}),
      reattach: { scanned: 0, adopted: 0, resolved_from_file: 0, unknown: 0, resumed_work_items: 0 },
      events,
      items,
      repos,
      schedules,
      intake,
      notifySettings,
      notifier,
      storage: new StorageService({ paths, store, events, clock, log }),
      search,
      accessSettings: new AccessSettings(paths.configDir, () => ({ bind, port: inst.port }), {
        bind: access.bind,
        port: access.port,
      }),
      engine,
      review,
      threads,
      reviews: late.reviews,
      asks,
      mergeRequests: new MergeRequestsService({
        store,
        events,
        now: () => stamp(clock),
        record: (id) => items.record(id),
        repo: (path) => repos.find(path),
        policyOf: (rec) => rec.policy_snapshot ?? config.policy,
      }),
      gate: new PermissionGate({
        events,
        asks,
        launchPolicy: (rec, task) => engine.launchPolicy(rec, task),
      }),
      documents: new DocumentsService({
        record: (id) => items.record(id),
        dto: (rec) => items.dto(rec),
        attachmentText: async (id, kind) => (await items.attachment(id, kind)).text,
        docsDir: join(paths.runDir, 'docs'),
      }),
      addons,
      clock,
    };
    const { app, routes } = await buildApp(inst);
    // Past this many sockets a new one is closed on accept, before it can hold a descriptor.
    app.server.maxConnections = serverLimits().maxConnections;
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
    inst.port = typeof address === 'object' && address ? address.port : port;
    lock.update({ bind, port: inst.port });
    engineRef.port = inst.port;
    // Sessions that outlived the last server are adopted, and running items continue (ADR 0003).
    inst.reattach = await engine.recover();
    // Requests about the items this process walks are forwarded here by the others (forward.ts).
    await engine.advertise(advertisedUrl(advertise, bind, inst.port), inst.peerToken);
    // An archive or abandon cut off before its worktree and branch were removed finishes now.
    const reclaimed = role === 'serve' ? await items.reclaimPending() : 0;
    if (reclaimed > 0) log.info({ items: reclaimed }, 'finished reclaiming worktrees');
    if (inst.reattach.scanned > 0 || inst.reattach.resumed_work_items > 0)
      log.info(inst.reattach, 'reattached');
    const host = bind.includes(':') ? `[${bind}]` : bind;
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${inst.port}`;
    const exposure = exposureOf(bind, access);
    for (const warning of exposure.warnings) log.warn({ bind }, `bound off loopback: ${warning}`);
    log.info(
      {
        bind,
        port: inst.port,
        pid: process.pid,
        home: paths.home,
        version: inst.version,
        ...(store.kind === 'postgres' ? { worker: identity.name, role, takes_work: identity.takesWork } : {}),
      },
      role === 'worker' ? 'jig worker claiming work' : 'jig listening',
    );
    const pollers: Pollers = { search, addons, lease: null };
    const close = closer(inst, app, lock, role === 'serve' ? pollers : null);
    if (role === 'worker') return { inst, app, url, routes, close, exposure };

    search.start();
    await search.indexTemplates();
    // A home older than the index (or one whose index was lost) is scanned once, in the background.
    if (await needsFirstScan(store.db)) search.reindex(null);
    addons.start();
    // One serve at a time runs these (at once on SQLite; on PostgreSQL whoever holds the lock).
    const duties = leaderDuties(said, [
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
      { name: 'auto-intake', start: () => intake.start(), stop: () => intake.stop() },
      { name: 'wall clocks and forge polls', start: () => engine.lead(true), stop: () => engine.lead(false) },
    ]);
    pollers.lease = await store.lead(duties, (err) =>
      said.warn({ err }, 'leadership: the lock connection failed; trying again'),
    );
    return { inst, app, url, routes, close, exposure };
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
