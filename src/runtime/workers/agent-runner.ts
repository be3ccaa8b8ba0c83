import { join } from 'node:path';
import { own } from '../../core/json/own.js';
import { packageRoot } from '../package-root.js';
import { clearPermissionHook, installPermissionHook } from '../harness/permission-hook.js';
import { DEFAULT_HARNESS } from '../../contract/config/harnesses.js';
import type { Logger } from 'pino';
import type { HarnessesFile } from '../../contract/config/harnesses.js';
import { formatProblem } from '../../contract/problems.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { JigError } from '../../contract/errors.js';
import { ESCALATION_NODE } from '../../contract/verdicts.js';
import type { ModelAgentTask, ResolvedChain } from '../../core/chain/model.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { toolPolicies, type ToolPolicy } from '../../core/policy/ratchet.js';
import type { Store } from '../../store/database.js';
import { patchWalk } from '../../store/item-walk.js';
import { dropTaskSteer, taskSteerOf } from '../../store/task-steers.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import { readConfigText } from '../config/config-dir.js';
import type { EventLog } from '../events/event-log.js';
import { buildAgentLaunch } from '../harness/agent-launch.js';
import type { AddonContent } from '../addons/content.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import { resolveExecutable } from '../harness/installed.js';
import { allowedTools, artifactPath, promptOf, resetOf } from './agent-inputs.js';
import { candidates, type Candidate } from './agent-candidates.js';
import { dailySpent } from './item-spend.js';
import type { SessionRunner } from './session-runner.js';
import { cappedScopes, crossedCap, crossedReason } from './spend.js';
import { SpendReservations } from './spend-reservations.js';
import { launchEnv } from './task-env.js';
import { jailOf, forHarness } from '../sandbox/sandbox-policy.js';
import { relayedUrl, type SandboxRequest } from '../sandbox/request.js';

/** How an agent task's launch went: a session that ran, or why none could (the item stops). */
export type AgentOutcome =
  | { kind: 'session'; session: SessionRecord }
  | { kind: 'refuse'; stop: 'config' | 'budget' | 'rate_limit'; reason: string; session?: SessionRecord };

export interface SkillSource {
  text(ref: string): { ok: true; text: string } | { ok: false; reason: string };
}

export interface AgentRunnerDeps {
  store: Store;
  events: EventLog;
  config: ConfigState;
  catalog: HarnessCatalog;
  skills: SkillSource;
  /** Add-on skills, profiles and steering, at the versions the item's chain pinned. */
  addons: AddonContent;
  /** The config folder: harnesses.yaml is read from it at each launch. */
  configDir: string;
  log: Logger;
  clock: Clock;
  /** Where tasks reach the server ($JIG_DAEMON_PORT). */
  port: () => number;
  /** JIG_HOME, for the MCP server a launch that may ask a person names. */
  home: string;
}

export interface AgentLaunchRequest {
  rec: ItemRecord;
  repo: RepoEntry;
  chain: ResolvedChain;
  policy: PolicyFile | null;
  node: string;
  task: ModelAgentTask;
  timeCapS: number | null;
  /** Jig's instruction (a repair's findings, a judge's question), added to the task's prompt. */
  brief?: string;
  /** Told of each session as it starts (the escalation route answers with it). */
  onStart?: (s: SessionRecord) => void;
  /** A fanned-out run: the workspace member and its worktree, where the agent runs. */
  member?: { name: string; cwd: string };
  /** The session whose CLI thread this launch goes on in (an escalation's earlier turn), when it can. */
  continues?: SessionRecord;
}

/** What the checks before any launch found: what every candidate launches with. */
interface Preflight {
  harnesses: HarnessesFile;
  tools: ToolPolicy | undefined;
  providers: Record<string, ProviderDefinition>;
  worktree: string;
  /** Where the task writes the document it produces, if it produces one. */
  artifact: string | null;
  /** The task's session this launch continues (its CLI session is resumed), and why. */
  resumable: Continued | null;
  candidates: Candidate[];
  /** The jail every candidate runs in (docs/sandbox.md), or null. */
  sandbox: SandboxRequest | null;
}

/** A session a launch continues: a pause interrupted it, a retry or an escalation thread goes on in it. */
interface Continued {
  session: SessionRecord;
  why: 'pause' | 'retry' | 'thread';
}

/** What the candidates tried so far left: why some could not start, the earliest reset, the last session. */
interface Tried {
  unavailable: string[];
  limitedUntil: number | null;
  last: SessionRecord | undefined;
}

const RESUME_PROMPT =
  'Continue the task where you stopped; your instructions have not changed. Write the result file when you finish.';
const RETRY_PROMPT =
  'Your last run of this task stopped before the work item could go on, and a person asked Jig to try again. ' +
  'Look at where you stopped, fix what went wrong, and finish the task; write the result file when you finish.';

/** `<namespace>:<name>` of an add-on; `jig:` names Jig's own packaged skills. */
const isAddonRef = (ref: string): boolean => ref.includes(':') && !ref.startsWith('jig:');
const refuse = (reason: string): AgentOutcome => ({ kind: 'refuse', stop: 'config', reason });
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Launches agent tasks: picks the harness and model (falling back past rate-limited or unavailable
 * candidates), enforces the sandbox rule, the harness allow-list and the spend caps before launch,
 * delivers a steer once, and resumes a paused CLI session where the CLI can.
 */
export class AgentRunner {
  /** Harness+model pairs a provider limited, until when (ms): skipped without a launch until then. */
  private readonly limited = new Map<string, number>();
  /** Capped scopes held by a launch whose CLI tells its usage only at its end. */
  private readonly reservations = new SpendReservations();
  private harnessCache: { text: string | null; file: HarnessesFile | null; problems: string } | null = null;

  constructor(
    private readonly d: AgentRunnerDeps,
    private readonly sessions: SessionRunner,
  ) {}

  /** harnesses.yaml as it is on disk now (it is read when needed, not at reload). */
  private harnesses(): { file: HarnessesFile | null; problems: string } {
    const text = readConfigText(this.d.configDir, 'harnesses.yaml');
    if (this.harnessCache?.text !== text) {
      const load = loadHarnesses(text);
      this.harnessCache = {
        text,
        file: load.model ?? null,
        problems: load.problems.map(formatProblem).join('; '),
      };
    }
    return this.harnessCache;
  }

  /** The task's candidates in order until one runs; when none can, why (parked on a rate limit, or a stop). */
  async run(r: AgentLaunchRequest): Promise<AgentOutcome> {
    const pre = await this.preflight(r);
    if ('kind' in pre) return pre;
    const tried: Tried = { unavailable: [], limitedUntil: null, last: undefined };
    for (const cand of pre.candidates) {
      const out = await this.tryCandidate(r, pre, cand, tried);
      if (out) return out;
    }
    return this.exhausted(r, pre.candidates.length, tried);
  }

  /**
   * What is refused before any candidate: a sandbox Jig cannot run, harnesses.yaml that does not
   * load, a spend cap already reached, a document folder that cannot be made.
   */
  private async preflight(r: AgentLaunchRequest): Promise<Preflight | AgentOutcome> {
    const jail = jailOf(r.rec, r.repo, r.policy, 'runtime', true, this.d.port(), r.task.path);
    if (!jail.ok) return refuse(jail.reason);
    const h = this.harnesses();
    if (!h.file) return refuse(`harnesses.yaml does not load: ${h.problems}`);
    const gone = this.d.addons.missing(r.chain.addons);
    if (gone) return refuse(`${r.task.path}: ${gone}`);
    const harnesses = this.d.addons.withProfiles(h.file, r.chain.addons);
    const tools = toolPolicies(r.chain, r.policy, r.repo.policy).get(r.task.path);
    const providers = this.d.catalog.providers().providers;

    const before = await this.overCap(r);
    if (before) return { kind: 'refuse', stop: 'budget', reason: before };

    const worktree = r.member?.cwd ?? r.rec.worktree_path;
    if (worktree === null) return refuse(`${r.task.path}: the item has no worktree yet`);
    let artifact: string | null = null;
    // Documents are the root's (gates read them there): a member's run produces none.
    if (typeof r.task.produces === 'string' && !r.member) {
      const made = artifactPath(worktree, r.task.produces);
      if (!made.ok) return refuse(`${r.task.path}: ${made.reason}`);
      artifact = made.path;
    }
    return {
      harnesses,
      tools,
      providers,
      worktree,
      artifact,
      resumable: await this.resumableSession(r),
      candidates: candidates(r.task, harnesses),
      sandbox: jail.sandbox,
    };
  }

  /**
   * Launches one candidate and waits for its session. Null: it could not start or was rate limited,
   * and the next candidate is tried (`tried` says why); otherwise the launch's outcome.
   */
  private async tryCandidate(
    r: AgentLaunchRequest,
    pre: Preflight,
    cand: Candidate,
    tried: Tried,
  ): Promise<AgentOutcome | null> {
    const total = pre.candidates.length;
    const harnessId = typeof cand.task.harness === 'string' ? cand.task.harness : DEFAULT_HARNESS;
    const { tools } = pre;
    if (tools?.allowed_harnesses && !tools.allowed_harnesses.includes(harnessId)) {
      return refuse(
        `${r.task.path}: harness ${harnessId} is not allowed by policy (allowed_harnesses: ${tools.allowed_harnesses.join(', ') || 'none'})`,
      );
    }
    const rec = await this.fresh(r.rec.id);
    const cont = pre.resumable;
    const resume =
      cont && cont.session.harness === harnessId && cont.session.cli_session_id
        ? cont.session.cli_session_id
        : null;
    const steer = rec.steer;
    const taskSteer = await taskSteerOf(this.d.store.db, rec.id, r.task.path);
    // The item's note for any launch, then the one for this task: both reach this launch.
    const note = [steer, taskSteer].filter((x): x is string => x !== null).join('\n\n') || null;
    const hook = await this.hookFor(pre, harnessId);
    if (hook && !hook.ok) {
      tried.unavailable.push(`${r.task.path}: ${hook.reason}`);
      await this.fallback(r, cand.index, total, hook.reason);
      return null;
    }
    const launch = buildAgentLaunch({
      task: { ...cand.task, prompt: promptOf(rec, cand.task, r.brief, r.member?.name) },
      node: r.node,
      harnesses: pre.harnesses,
      providers: pre.providers,
      repo: r.repo,
      steering: (name) =>
        isAddonRef(name) ? this.d.addons.steering(name, r.chain.addons) : this.d.config.steering(name),
      agentOverrides: rec.agent_overrides,
      nodeOverrides: rec.node_overrides,
      steer: resume ? null : note,
      resumeSessionId: resume,
      allowedTools: allowedTools(
        own(pre.providers, own(pre.harnesses.harnesses, harnessId)?.provider ?? '')?.capabilities
          .allowed_tools,
        tools,
      ),
      ...(tools?.deny_tools.length ? { deniedTools: tools.deny_tools } : {}),
      // An escalation turn is not the item's worker (its own MCP tools act on the item): no asks.
      permissionPrompt:
        r.node === ESCALATION_NODE ? null : askConfig(rec, this.d.home, relayedUrl(pre.sandbox)),
      permissionHook: hook?.ok ? { args: hook.args } : null,
      // A thread goes on with the task's own prompt (the new message); a pause or retry with an instruction.
      ...(resume && cont?.why !== 'thread'
        ? { promptOverride: note ?? (cont?.why === 'retry' ? RETRY_PROMPT : RESUME_PROMPT) }
        : {}),
      skill: (ref) => (isAddonRef(ref) ? this.d.addons.skill(ref, r.chain.addons) : this.d.skills.text(ref)),
      produces: typeof r.task.produces === 'string' ? r.task.produces : null,
    });
    if (!launch.ok) {
      tried.unavailable.push(launch.reason);
      await this.fallback(r, cand.index, total, launch.reason);
      return null;
    }
    const model = launch.choice.model;
    const key = `${harnessId}|${model ?? ''}`;
    const until = this.limited.get(key);
    if (until !== undefined && until > this.d.clock.now()) {
      tried.limitedUntil = Math.min(tried.limitedUntil ?? until, until);
      await this.fallback(r, cand.index, total, `${key} is rate limited until ${iso(until)}`);
      return null;
    }
    const exe = launch.argv[0] ?? '';
    if (resolveExecutable(exe) === null) {
      const reason = `${harnessId}: executable ${exe} is not installed here (not on PATH)`;
      tried.unavailable.push(reason);
      await this.fallback(r, cand.index, total, reason);
      return null;
    }
    const escalation = r.node === ESCALATION_NODE;
    const env: Record<string, string> = {
      ...launchEnv(rec, r.repo, this.d.port(), escalation, r.member?.name),
      ...launch.env,
    };
    if (pre.artifact !== null) env.JIG_ARTIFACT_PATH = pre.artifact;
    // The hook runs in the CLI's environment: this tells it which Jig, and which task's policy.
    if (hook?.ok) Object.assign(env, { JIG_HOME: this.d.home, JIG_TASK_PATH: r.task.path });
    // In a capped scope, a CLI that tells its usage only at its end runs alone (spend-reservations.ts).
    const keys = cappedScopes(rec, r.chain, r.policy, r.task.path).map(
      (c) => `${rec.id}|${c.scope}|${c.path}`,
    );
    const release = await this.reservations.acquire(keys, launch.provider.usage_reported !== 'live');
    let done: SessionRecord;
    try {
      if (keys.length > 0) {
        // What a session that held the scope spent counts now, and the item may have moved meanwhile.
        const over = await this.overCap(r);
        if (over) return { kind: 'refuse', stop: 'budget', reason: over };
        // An escalation turn runs on a stopped item; any other launch is for a running one.
        if (r.node !== ESCALATION_NODE && !(await this.stillRunning(rec.id)))
          return refuse(`${r.task.path}: the item stopped while the launch waited for its capped scope`);
      }
      const { session, launched } = await this.sessions.start({
        itemId: rec.id,
        node: r.node,
        taskPath: r.task.path,
        kind: 'agent',
        argv: launch.argv,
        cwd: pre.worktree,
        env,
        timeCapS: r.timeCapS,
        ...(r.brief !== undefined ? { brief: r.brief } : {}),
        ...(r.member ? { member: r.member.name } : {}),
        agent: { harness: harnessId, provider: launch.provider, model, ignored: launch.ignored },
        ...(pre.sandbox ? { sandbox: forHarness(pre.sandbox, launch.provider) } : {}),
      });
      // A steer is delivered once: the launch that carried it consumed it.
      if (steer) await updateItem(this.d.store.db, rec.id, { steer: null });
      if (taskSteer) await dropTaskSteer(this.d.store.db, rec.id, r.task.path, taskSteer);
      r.onStart?.(session);
      done = await this.sessions.finish(session, launched);
    } finally {
      release();
    }
    tried.last = done;
    if (done.status !== 'rate_limited') return { kind: 'session', session: done };
    const resetsAt = resetOf(done, this.d.clock.now());
    this.limited.set(key, resetsAt);
    tried.limitedUntil = Math.min(tried.limitedUntil ?? resetsAt, resetsAt);
    await this.d.events.record(
      rec.id,
      'rate_limit_hit',
      { task: r.task.path, session: done.id, harness: harnessId, model, resets_at: iso(resetsAt) },
      { node: r.node },
    );
    if (!(await this.stillRunning(rec.id))) return { kind: 'session', session: done };
    await this.fallback(r, cand.index, total, `rate limited until ${iso(resetsAt)}`);
    return null;
  }

  /**
   * The pre-tool hook a launch needs: only for a CLI without tool-list flags whose provider can run
   * Jig's hook, when policy limits tools. Under an allowed-tools list the hook fails closed (an
   * error denies the call); with only denied tools it fails open, as the CLI alone would run.
   */
  private async hookFor(
    pre: Preflight,
    harnessId: string,
  ): Promise<{ ok: true; args: string[] } | { ok: false; reason: string } | null> {
    const caps = own(pre.providers, own(pre.harnesses.harnesses, harnessId)?.provider ?? '')?.capabilities;
    const { tools } = pre;
    if (!caps?.permission_hook || caps.allowed_tools) return null;
    if (!tools || (tools.allowed_tools === null && tools.deny_tools.length === 0)) {
      clearPermissionHook(caps.permission_hook, pre.worktree);
      return null;
    }
    return installPermissionHook(caps.permission_hook, pre.worktree, tools.allowed_tools !== null);
  }

  /**
   * No candidate ran: when some were rate limited the item parks until the earliest reset (the
   * engine retries then), else it stops on why none could start.
   */
  private async exhausted(r: AgentLaunchRequest, total: number, tried: Tried): Promise<AgentOutcome> {
    const { limitedUntil, unavailable, last } = tried;
    await this.d.events.record(
      r.rec.id,
      'launch_fallback_exhausted',
      {
        task: r.task.path,
        candidates: total,
        ...(limitedUntil !== null ? { resets_at: iso(limitedUntil) } : {}),
        unavailable,
      },
      { node: r.node },
    );
    if (limitedUntil !== null) {
      const until = iso(limitedUntil);
      await patchWalk(
        this.d.store.db,
        r.rec.id,
        (w) => ({ ...w, parked_until: until }),
        iso(this.d.clock.now()),
      );
      return {
        kind: 'refuse',
        stop: 'rate_limit',
        reason: `every launch of ${r.task.path} is rate limited; retrying at ${until}`,
        ...(last ? { session: last } : {}),
      };
    }
    return refuse(`${r.task.path}: no launch could start: ${unavailable.join('; ')}`);
  }

  private async fallback(r: AgentLaunchRequest, index: number, total: number, reason: string): Promise<void> {
    if (index + 1 >= total) return;
    await this.d.events.record(
      r.rec.id,
      'launch_fallback',
      { task: r.task.path, from: index, to: index + 1, reason },
      { node: r.node },
    );
  }

  private async fresh(id: string): Promise<ItemRecord> {
    const rec = await getItem(this.d.store.db, id);
    if (!rec) throw new JigError('item_not_found', { id });
    return rec;
  }

  private async stillRunning(id: string): Promise<boolean> {
    return (await this.fresh(id)).status === 'running';
  }

  /** The task's last session in this step when a pause ended it: its CLI session can be resumed. */
  /**
   * The CLI session this launch continues: the task's session a pause interrupted in this step, or
   * the one a person's retry asked to continue (`walk.resume_session`), while it is still the task's
   * last: the launch that continued it is a newer session, so it is continued once.
   */
  private async resumableSession(r: AgentLaunchRequest): Promise<Continued | null> {
    if (r.continues?.cli_session_id) return { session: r.continues, why: 'thread' };
    const since = r.rec.walk?.step_at ?? '';
    const lastOne = (await sessionsOf(this.d.store.db, r.rec.id))
      .filter((s) => s.task_path === r.task.path && s.member === (r.member?.name ?? null))
      .at(-1);
    if (!lastOne?.cli_session_id) return null;
    if (lastOne.status === 'paused' && lastOne.started_at >= since) return { session: lastOne, why: 'pause' };
    if (r.rec.walk?.resume_session === lastOne.id) return { session: lastOne, why: 'retry' };
    return null;
  }

  /** Why a cap already stops this launch, or null. */
  async overCap(r: Pick<AgentLaunchRequest, 'rec' | 'chain' | 'policy' | 'task'>): Promise<string | null> {
    const crossed = crossedCap({
      rec: await this.fresh(r.rec.id),
      chain: r.chain,
      policy: r.policy,
      taskPath: r.task.path,
      sessions: await sessionsOf(this.d.store.db, r.rec.id),
      dailySpent: await dailySpent(this.d.store, this.d.clock),
    });
    return crossed ? crossedReason(crossed) : null;
  }
}

/**
 * The MCP config a launch passes so an undecided tool call asks a person through Jig: Jig's own
 * stdio server, speaking for this item's worker. Only for an item a person filed: a scheduled,
 * triggered or auto-filed item runs unattended, where an ask would only wait out its time, so its
 * undecided calls are denied at once as before. In a jail the server is named by `url` (the API
 * relayed inside): the home's files that say where it listens are not there, and a CLI starts its
 * MCP servers with a few variables of its own plus these, not with the jail's `JIG_URL`.
 */
export function askConfig(rec: ItemRecord, home: string, url: string | null = null): string | null {
  if (rec.source !== 'human' && rec.source !== 'duplicate') return null;
  return JSON.stringify({
    mcpServers: {
      jig: {
        command: process.execPath,
        args: [join(packageRoot, 'bin', 'jig.js'), 'admin', 'mcp'],
        env: { JIG_HOME: home, JIG_WORK_ITEM_ID: rec.id, ...(url !== null ? { JIG_URL: url } : {}) },
      },
    },
  });
}
