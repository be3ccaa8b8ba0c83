import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AccessFile } from '../contract/config/access.js';
import type { ReloadAnswer } from '../contract/reload.js';
import type { DraftArea } from '../contract/drafts/areas.js';
import { AddonsService } from '../runtime/addons/addons-service.js';
import { AnalyticsService } from '../runtime/analytics/analytics-service.js';
import { PermissionAsks } from '../runtime/asks/permission-asks.js';
import { PermissionGate } from '../runtime/asks/permission-gate.js';
import { AuthService } from '../runtime/auth/auth-service.js';
import { TokenFile } from '../runtime/auth/token-file.js';
import { stamp, type Clock } from '../runtime/clock.js';
import { AccessSettings } from '../runtime/config/access-settings.js';
import { ConfigState } from '../runtime/config/config-state.js';
import { ConfigWriter } from '../runtime/config/config-writer.js';
import { recoverConfig } from '../runtime/config/config-journal.js';
import { PolicySettings } from '../runtime/config/policy-settings.js';
import { TemplateFiles } from '../runtime/config/template-files.js';
import { TemplatesService } from '../runtime/config/templates-service.js';
import { ThemeSettings } from '../runtime/config/theme-settings.js';
import { ConfigDrafts } from '../runtime/drafts/config-drafts.js';
import { DraftOps } from '../runtime/drafts/draft-ops.js';
import { DraftPublisher } from '../runtime/drafts/publish.js';
import { PolicyPreviewService } from '../runtime/drafts/policy-preview.js';
import { Engine } from '../runtime/engine/engine.js';
import { commandStubsFrom } from '../runtime/chain-test/command-stubs.js';
import { Recordings } from '../runtime/recordings/recordings.js';
import { AutoRecord } from '../runtime/recordings/auto-record.js';
import { Claims } from '../runtime/engine/claims.js';
import { ProcessRegistry, type ProcessIdentity } from '../runtime/engine/process-registry.js';
import { Workers } from '../runtime/workers/workers.js';
import { SkillCatalog } from '../runtime/harness/skills.js';
import { AddonContent } from '../runtime/addons/content.js';
import type { EventLog } from '../runtime/events/event-log.js';
import { MergeRequestsService } from '../runtime/forge/merge-requests-service.js';
import { HarnessCatalog } from '../runtime/harness/catalog.js';
import { anyAgentCli, launchChecker } from '../runtime/harness/launch-check.js';
import type { HomePaths } from '../runtime/home/paths.js';
import type { Instance } from '../runtime/instance.js';
import { AutoIntake } from '../runtime/intake/auto-intake.js';
import { intakeCronRule, policyTriggerRule } from '../runtime/intake/cron-rules.js';
import { IssueCloser } from '../runtime/intake/issue-closer.js';
import { IssueFeedback } from '../runtime/intake/issue-feedback.js';
import { SchedulePoller } from '../runtime/intake/schedule-poller.js';
import { TrackerQueue } from '../runtime/intake/tracker-queue.js';
import { ItemDrafts } from '../runtime/items/item-drafts.js';
import { ItemsService } from '../runtime/items/items-service.js';
import { ItemRequests } from '../runtime/items/item-requests.js';
import { Notifier } from '../runtime/notify/notifier.js';
import { NotifySettings } from '../runtime/notify/notify-settings.js';
import type { PathMapping } from '../runtime/repos/path-map.js';
import { ReposService } from '../runtime/repos/repos-service.js';
import { DocumentsService } from '../runtime/review/documents-service.js';
import { ReviewService } from '../runtime/review/review-service.js';
import { ReviewsService } from '../runtime/review/reviews-service.js';
import { ThreadsService } from '../runtime/review/threads-service.js';
import { SearchService } from '../runtime/search/search-service.js';
import { StorageService } from '../runtime/storage/storage-service.js';
import { UpdateChecker } from '../runtime/update/checker.js';
import { SessionsView } from '../runtime/workers/sessions-view.js';
import type { Store } from '../store/database.js';
import { itemOr404 } from '../store/work-items.js';
import { readEvents } from '../store/events.js';
import { EventHub } from './event-hub.js';
import { ConnectionGate } from './connections.js';
import { serverLimits } from './limits.js';

/** What a start has settled before any service exists: the home, the store, the address. */
export interface Foundations {
  paths: HomePaths;
  env: NodeJS.ProcessEnv;
  log: Logger;
  store: Store;
  events: EventLog;
  clock: Clock;
  access: AccessFile;
  bind: string;
  identity: ProcessIdentity;
  repoMap: readonly PathMapping[];
  version: string;
  onRestart?: (exitCode: number) => void;
}

/** The services built once for a server, beside the instance the runtime knows. */
export interface Services extends Instance {
  /** The perimeter's credentials: tokens, browser sessions, logins, access.yaml as it is now. */
  auth: AuthService;
  templates: TemplatesService;
  harnessCatalog: HarnessCatalog;
  theme: ThemeSettings;
  mcpToken: TokenFile;
  updates: UpdateChecker;
  /** Recordings of real runs, which chain tests replay (issue 51). */
  recordings: Recordings;
  /** Records each ended item when policy.yaml says `record_runs: true` (a leader's duty). */
  autoRecord: AutoRecord;
  policySettings: PolicySettings;
  templateFiles: TemplateFiles;
  configDrafts: ConfigDrafts;
  draftOps: DraftOps;
  draftPublisher: DraftPublisher;
  itemDrafts: ItemDrafts;
  analytics: AnalyticsService;
  /** Filing with a start, an item's whole view, bulk moves: what takes more than one service. */
  itemRequests: ItemRequests;
  /** Task sessions and their logs, as the API shows them. */
  sessions: SessionsView;
  policyPreview: PolicyPreviewService;
  /** The live event stream's fan-out: one read per batch for every subscriber (event-hub.ts). */
  hub: EventHub;
  /** Who may hold a socket: the connection, WebSocket and per-address caps (connections.ts). */
  connections: ConnectionGate;
  /** The trackers' comments and closes, led by one serve at a time. */
  feedback: IssueFeedback;
  beads: IssueCloser;
}

/**
 * What a publish of each area applies (spec drafts.md, "Areas and keys"): library and chains
 * reload together; policy reloads alone (a harnesses draft only when it holds policy.yaml);
 * intake rereads its file and the poller follows; repos.yaml is read when needed.
 */
function applyArea(config: ConfigState, area: DraftArea, files: readonly string[]): ReloadAnswer | null {
  switch (area) {
    case 'chains':
    case 'library':
      return config.reload();
    case 'policy':
      return config.reloadPolicyOnly();
    case 'harnesses':
      return files.includes('policy.yaml') ? config.reloadPolicyOnly() : null;
    case 'intake':
      return config.reloadIntakeOnly();
    case 'repos':
      return null;
  }
}

/**
 * The composition root: every service of a server, built once, in the order each needs the
 * others, with nothing bound late. The cycles that late binding used to patch are broken by
 * direction: reviews and threads read items from the store, not through the items service; the
 * engine needs nothing of the items service, so the items service is given the engine's side of
 * an ending; the must-fix rule is the threads service's, asked by the engine and by reviews.
 */
export function compose(f: Foundations): Services {
  const { paths, env, log, store, events, clock } = f;
  const now = (): string => stamp(clock);
  const record = (id: string) => itemOr404(store.db, id);

  // A change of several config files cut short by a crash is put back before the config loads.
  const recovered = recoverConfig(paths.configDir);
  if (recovered)
    log.warn(
      { files: recovered.restored },
      `an interrupted config change was rolled back: ${recovered.restored.length} file(s) put back as they were before it`,
    );
  // Crons are read by the dialect's own parser: a bad one refuses intake.yaml (or, when it cannot
  // be read at all, a policy.yaml trigger's file), with the line and column of the fault.
  const config = new ConfigState(paths.configDir, paths.addonsDir, {
    intake: intakeCronRule(paths.configDir),
    policy: policyTriggerRule(paths.configDir),
  });
  // Loaded before anything subscribes to its reloads, as every service reads it.
  for (const r of config.loadAtStart().refused)
    log.warn({ file: r.file, problems: r.problems }, 'config file does not load');
  // The one writer of the home's config files: every service that saves one is handed it.
  const writer = new ConfigWriter(paths.configDir);
  const harnessCatalog = new HarnessCatalog(paths.configDir);
  const repos = new ReposService(writer, store, process.cwd(), config, f.repoMap, () =>
    !anyAgentCli(paths.configDir, harnessCatalog) && config.lookup('manual').ok
      ? { value: 'manual', reason: 'no agent CLI is installed here (harnesses.yaml)' }
      : { value: 'default', reason: 'the seeded chain' },
  );
  // The server's facts; the port is set once it listens, the reattach summary once it recovers.
  const facts = {
    paths,
    version: f.version,
    startedAt: clock.now(),
    bind: f.bind,
    port: 0,
    access: f.access,
    log,
    supervised: Boolean(env.INVOCATION_ID) || env.JIG_SUPERVISED === '1',
    role: f.identity.role,
    peerToken: randomBytes(32).toString('base64url'),
    ...(f.onRestart ? { requestRestart: f.onRestart } : {}),
    reattach: { scanned: 0, adopted: 0, resolved_from_file: 0, unknown: 0, resumed_work_items: 0 },
    configRolledBack: recovered?.restored ?? [],
    clock,
  };

  // The engine's own services: the processes it launches, and which process walks each item.
  const workers = new Workers({
    store,
    events,
    config,
    paths,
    log,
    clock,
    // Known once the server listens (startServer sets it); read at each launch.
    port: () => inst.port,
    catalog: harnessCatalog,
    skills: new SkillCatalog(paths.configDir),
    addons: new AddonContent(paths.addonsDir, config),
    identity: f.identity,
  });
  const registry = new ProcessRegistry({ store, events, clock, log, identity: f.identity, home: paths.home });
  const claims = new Claims({ store, events, clock, log, registry });
  const review = new ReviewService({ store, log, now, record });
  const threads = new ThreadsService({ store, events, now, record });
  const engine = new Engine({
    store,
    events,
    config,
    repos,
    paths,
    log,
    clock,
    attempts: review,
    threads,
    identity: f.identity,
    catalog: harnessCatalog,
    workers,
    claims,
    registry,
    ...stubs(commandStubsFrom(env)),
  });
  const items = new ItemsService({
    log,
    store,
    config,
    repos,
    chains: config,
    events,
    attachmentsDir: paths.attachmentsDir,
    clock,
    ended: (id) => engine.ended(id),
    settle: { ended: (id) => engine.dependencyEnded(id), changed: (id) => engine.dependenciesChanged(id) },
    runDir: paths.runDir,
    launchCheck: launchChecker(paths.configDir, harnessCatalog, () => config.policy),
  });
  const reviews = new ReviewsService({
    store,
    events,
    now,
    record,
    engine,
    threads,
    chainOf: (rec) => rec.chain_definition ?? config.runningChains.get(rec.chain)?.resolved ?? null,
  });
  // Built here so routes can read it; its timer starts only once the server leads.
  const schedules = new SchedulePoller({ config, items, store, log, clock });
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
  const queue = new TrackerQueue((err, what) => log.error({ err }, `${what} failed`));
  const trackers = { store, events, log, repos, config, env, queue };
  const notifySettings = new NotifySettings(writer);
  if (notifySettings.problem)
    log.warn({ reason: notifySettings.problem }, 'notify.yaml does not load; no notifications');
  // A reload rereads notify.yaml too, and names it refused when it does not load.
  config.reloadsWith({
    file: 'notify.yaml',
    reload: () => {
      const now = notifySettings.reload();
      if (now.problem) log.warn({ reason: now.problem }, 'notify.yaml does not load; no notifications');
      return now.problems;
    },
    check: () => notifySettings.check(),
  });
  const search = new SearchService({ store, events, paths, clock, log });
  config.onReload(() => {
    search.indexTemplates().catch((err: unknown) => log.warn({ err }, 'indexing chains and library failed'));
  });
  const mergeRequests = new MergeRequestsService({
    store,
    events,
    now,
    record,
    repo: (path) => repos.find(path),
    policyOf: (rec) => rec.policy_snapshot ?? config.policy,
  });
  const asks = new PermissionAsks({ store, events, clock, record });
  const mcpToken = new TokenFile(paths.mcpTokenPath);
  const configDrafts = new ConfigDrafts({
    store,
    configDir: paths.configDir,
    addonsDir: paths.addonsDir,
    clock,
  });
  const recordings = new Recordings({
    store,
    home: paths.home,
    runDir: paths.runDir,
    now: () => new Date(clock.now()),
  });
  const inst: Services = {
    ...facts,
    store,
    config,
    events,
    items,
    repos,
    schedules,
    intake,
    notifySettings,
    notifier: new Notifier({ settings: notifySettings, store, events, clock, log }),
    storage: new StorageService({ paths, store, events, clock, log }),
    search,
    accessSettings: new AccessSettings(writer, () => ({ bind: f.bind, port: inst.port }), {
      bind: f.access.bind,
      port: f.access.port,
    }),
    engine,
    review,
    threads,
    reviews,
    asks,
    mergeRequests,
    gate: new PermissionGate({ events, asks, launchPolicy: (rec, task) => engine.launchPolicy(rec, task) }),
    documents: new DocumentsService({
      record,
      dto: (rec) => items.dto(rec),
      attachmentText: async (id, kind) => (await items.attachment(id, kind)).text,
      docsDir: join(paths.runDir, 'docs'),
    }),
    addons: new AddonsService({
      writer,
      addonsDir: paths.addonsDir,
      config,
      store,
      clock,
      log,
    }),
    templates: new TemplatesService(paths.configDir, config, (path) => repos.find(path)),
    harnessCatalog,
    theme: new ThemeSettings(writer),
    mcpToken,
    recordings,
    autoRecord: new AutoRecord({ events, recordings, policy: () => config.policy, log }),
    auth: new AuthService({ paths, log, access: f.access, store, peerToken: facts.peerToken, mcpToken }),
    updates: new UpdateChecker(f.version, env, clock),
    policySettings: new PolicySettings(writer, config, store),
    templateFiles: new TemplateFiles(writer, config),
    configDrafts,
    draftOps: new DraftOps(configDrafts),
    // The reload at each publish is the server's own at that moment.
    draftPublisher: new DraftPublisher(configDrafts, writer, (area, files) => applyArea(config, area, files)),
    itemDrafts: new ItemDrafts({ store, events, config, items, clock, repos }),
    analytics: new AnalyticsService({ store, clock }),
    itemRequests: new ItemRequests({ store, items, engine, mergeRequests }),
    sessions: new SessionsView({ store }),
    policyPreview: new PolicyPreviewService({
      store,
      configDir: paths.configDir,
      addonsDir: paths.addonsDir,
    }),
    connections: new ConnectionGate(serverLimits(env), log),
    hub: new EventHub({ source: events, read: (after, limit) => readEvents(store.db, { after, limit }) }),
    feedback: new IssueFeedback(trackers),
    beads: new IssueCloser(trackers),
  };
  return inst;
}

/** A chain test server's command stubs, when it has any (exactOptionalPropertyTypes: no undefined). */
const stubs = (
  s: ((taskPath: string) => string[] | null) | undefined,
): { commandStub?: (taskPath: string) => string[] | null } => (s ? { commandStub: s } : {});
