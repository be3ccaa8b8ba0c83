import type { Logger } from 'pino';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { Store } from '../../store/database.js';
import { runningSessions, type SessionRecord } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import type { EventLog } from '../events/event-log.js';
import type { AddonContent } from '../addons/content.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import { launchUsd } from '../harness/launch-usd.js';
import type { HomePaths } from '../home/paths.js';
import { AgentRunner, type AgentLaunchRequest, type AgentOutcome, type SkillSource } from './agent-runner.js';
import { onUsage } from './item-spend.js';
import { SessionRunner } from './session-runner.js';
import type { PersonEnding } from './session-status.js';
import { launchEnv } from './task-env.js';
import type { SandboxRequest } from '../sandbox/request.js';
import { jailOf, type SandboxChoice } from '../sandbox/sandbox-policy.js';

/** What the workers work with: a part of the engine's resources (engine/resources.ts). */
export interface WorkerResources {
  store: Store;
  events: EventLog;
  config: ConfigState;
  paths: HomePaths;
  log: Logger;
  clock: Clock;
  /** Where tasks reach the server ($JIG_DAEMON_PORT). */
  port: () => number;
  catalog: HarnessCatalog;
  skills: SkillSource;
  /** Add-on skills, profiles and steering at the versions an item's chain pinned. */
  addons: AddonContent;
  /** This process among those sharing the store: sessions record its name. */
  identity: { name: string };
}

/** A command task (subprocess, builtin, the setup command) to run in the item's worktree. */
export interface CommandRequest {
  rec: ItemRecord;
  repo: RepoEntry;
  /** The node it runs for (or a pseudo-node: `<setup>`). */
  node: string;
  taskPath: string;
  kind: string;
  argv: string[];
  /** Where it runs: the item's worktree. */
  cwd: string;
  timeCapS: number | null;
  brief?: string;
  /** Variables of this task beyond the item's (a forge token: in the environment, never in argv). */
  env?: Record<string, string>;
  /** The workspace member a fanned-out run is for (its worktree is `cwd`). */
  member?: string;
  /** The jail it runs in (from `jail`); absent or null: none. */
  sandbox?: SandboxRequest | null;
}

/**
 * The processes of work items: command tasks and agent launches run to their end, live sessions
 * ended on request, sessions that outlived a server adopted or resolved from their files. The
 * engine decides what runs; the workers run it and say how it ended (DESIGN.md, runtime/workers/).
 */
export class Workers {
  readonly sessions: SessionRunner;
  readonly agents: AgentRunner;

  constructor(private readonly r: WorkerResources) {
    this.sessions = new SessionRunner(r, {
      provider: (id) => r.catalog.providers().providers[id],
      pricing: (harness) => ({
        table: r.catalog.prices(),
        launch_usd: launchUsd(r.paths.configDir, harness),
      }),
      onUsage: (s, final) => onUsage(r, s, final),
    });
    this.agents = new AgentRunner(
      {
        store: r.store,
        events: r.events,
        config: r.config,
        catalog: r.catalog,
        skills: r.skills,
        addons: r.addons,
        configDir: r.paths.configDir,
        log: r.log,
        clock: r.clock,
        port: r.port,
        home: r.paths.home,
      },
      this.sessions,
    );
  }

  /** Runs a command task to its end and answers its session as recorded. */
  async runCommand(req: CommandRequest): Promise<SessionRecord> {
    const { session, launched } = await this.sessions.start({
      itemId: req.rec.id,
      node: req.node,
      taskPath: req.taskPath,
      kind: req.kind,
      argv: req.argv,
      cwd: req.cwd,
      env: { ...launchEnv(req.rec, req.repo, this.r.port(), false, req.member), ...req.env },
      timeCapS: req.timeCapS,
      ...(req.member !== undefined ? { member: req.member } : {}),
      ...(req.brief !== undefined ? { brief: req.brief } : {}),
      ...(req.sandbox ? { sandbox: req.sandbox } : {}),
    });
    return this.sessions.finish(session, launched);
  }

  /**
   * The jail a task of the item runs in, from its repo's sandbox (docs/sandbox.md): every worktree
   * of the item is writable inside, so a workspace's tasks see their members.
   */
  jail(rec: ItemRecord, repo: RepoEntry, taskPath: string, phase: 'install' | 'runtime'): SandboxChoice {
    // The policy the item froze at its first start (the instance default comes from it).
    const policy = rec.policy_snapshot ?? this.r.config.policy;
    return jailOf(rec, repo, policy, phase, false, this.r.port(), taskPath);
  }

  /** Launches an agent task (its candidates, caps, steer) and waits for the session that ran. */
  runAgent(req: AgentLaunchRequest): Promise<AgentOutcome> {
    return this.agents.run(req);
  }

  /**
   * Ends every live session of an item (a pause, a move that ends it, a wall clock); `cancelled`
   * when the item's move ends it for good, so its sessions are not listed as resumable.
   */
  async endSessions(itemId: string, why: PersonEnding = 'paused'): Promise<void> {
    // On a shared store another worker's sessions are its own to end (its fence sees the move);
    // a process on the same machine could match their pids, but must not end them.
    const shared = this.r.store.kind === 'postgres';
    const live = (await runningSessions(this.r.store.db, itemId)).filter(
      (s) => !shared || s.worker === this.r.identity.name || s.worker === null,
    );
    await Promise.all(live.map((s) => this.sessions.end(s, why)));
  }

  /**
   * Ends this process's live sessions of an item, whatever the store says (engine/claims.ts);
   * `walkOnly` spares its escalation turn.
   */
  endLocal(itemId: string, why: PersonEnding = 'paused', walkOnly = false): Promise<void> {
    return this.sessions.endLocal(itemId, why, walkOnly);
  }

  /** Ends one live session (an escalation turn a person stops). */
  end(s: SessionRecord): Promise<void> {
    return this.sessions.end(s);
  }

  /** Watches a session a previous server started until it ends, and records how it ended. */
  adopt(s: SessionRecord): Promise<SessionRecord> {
    return this.sessions.finish(s);
  }

  /** Records how a session whose process is gone ended, from its files. */
  resolve(s: SessionRecord): Promise<SessionRecord> {
    return this.sessions.record(s);
  }

  close(): void {
    this.sessions.close();
  }
}
