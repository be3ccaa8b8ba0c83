import { join } from 'node:path';
import type { Logger } from 'pino';
import type { HarnessesFile } from '../../contract/config/harnesses.js';
import { formatProblem } from '../../contract/problems.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ModelAgentTask, ResolvedChain } from '../../core/chain/model.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { toolPolicies } from '../../core/policy/ratchet.js';
import type { Store } from '../../store/database.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { ConfigState } from '../config/config-state.js';
import { readConfigText } from '../config/config-dir.js';
import { createInside, makeFoldersInside } from '../fs/create-inside.js';
import type { EventLog } from '../events/event-log.js';
import { buildAgentLaunch } from '../harness/agent-launch.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import { resolveExecutable } from '../harness/installed.js';
import { candidates } from './agent-candidates.js';
import type { SessionRunner } from './session-runner.js';
import { patchWalk } from './node-state.js';
import { crossedCap, crossedReason } from './spend.js';

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
  configDir: string;
  sessions: SessionRunner;
  log: Logger;
  /** The launch environment every task gets (allowlist, repo env, JIG_* variables). */
  env(rec: ItemRecord, repo: RepoEntry): Record<string, string>;
  /** Spend of every item since local midnight, for the daily cap. */
  dailySpent(): Promise<number>;
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
}

const RESUME_PROMPT =
  'Continue the task where you stopped; your instructions have not changed. Write the result file when you finish.';

/**
 * Launches agent tasks: picks the harness and model (falling back past rate-limited or unavailable
 * candidates), enforces the sandbox rule, the harness allow-list and the spend caps before launch,
 * delivers a steer once, and resumes a paused CLI session where the CLI can.
 */
export class AgentRunner {
  /** Harness+model pairs a provider limited, until when (ms): skipped without a launch until then. */
  private readonly limited = new Map<string, number>();
  private harnessCache: { text: string | null; file: HarnessesFile | null; problems: string } | null = null;

  constructor(private readonly d: AgentRunnerDeps) {}

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

  async run(r: AgentLaunchRequest): Promise<AgentOutcome> {
    const refuse = (reason: string): AgentOutcome => ({ kind: 'refuse', stop: 'config', reason });
    const sandbox = r.repo.sandbox;
    if (sandbox) {
      if (!sandbox.network && sandbox.unrestricted_network !== true) {
        return refuse(
          `repo ${r.repo.path} has a sandbox with no network: policy; set sandbox.network (allow lists) or unrestricted_network: true in repos.yaml`,
        );
      }
      const kind = sandbox.kind ?? 'docker';
      return refuse(
        resolveExecutable(kind) === null
          ? `repo ${r.repo.path} asks for a ${kind} sandbox, and ${kind} is not installed on this machine; Jig will not run the agent unsandboxed`
          : `repo ${r.repo.path} asks for a ${kind} sandbox, which this Jig cannot run agents in yet; Jig will not run the agent unsandboxed`,
      );
    }
    const h = this.harnesses();
    if (!h.file) return refuse(`harnesses.yaml does not load: ${h.problems}`);
    const tools = toolPolicies(r.chain, r.policy, r.repo.policy).get(r.task.path);
    const providers = this.d.catalog.providers().providers;

    const before = await this.overCap(r);
    if (before) return { kind: 'refuse', stop: 'budget', reason: before };

    let artifact: string | null = null;
    if (typeof r.task.produces === 'string') {
      const made = artifactPath(r.rec.worktree_path!, r.task.produces);
      if (!made.ok) return refuse(`${r.task.path}: ${made.reason}`);
      artifact = made.path;
    }

    const resumable = await this.pausedSession(r);
    const unavailable: string[] = [];
    let limitedUntil: number | null = null;
    let last: SessionRecord | undefined;
    const all = candidates(r.task, h.file);
    for (const cand of all) {
      const harnessId = typeof cand.task.harness === 'string' ? cand.task.harness : 'claude';
      if (tools?.allowed_harnesses && !tools.allowed_harnesses.includes(harnessId)) {
        return refuse(
          `${r.task.path}: harness ${harnessId} is not allowed by policy (allowed_harnesses: ${tools.allowed_harnesses.join(', ') || 'none'})`,
        );
      }
      const rec = await this.fresh(r.rec.id);
      const resume =
        resumable && resumable.harness === harnessId && resumable.cli_session_id
          ? resumable.cli_session_id
          : null;
      const steer = rec.steer;
      const launch = buildAgentLaunch({
        task: { ...cand.task, prompt: promptOf(rec, cand.task, r.brief) },
        node: r.node,
        harnesses: h.file,
        providers,
        repo: r.repo,
        steering: (name) => this.d.config.steering(name),
        agentOverrides: rec.agent_overrides,
        nodeOverrides: rec.node_overrides,
        steer: resume ? null : steer,
        resumeSessionId: resume,
        allowedTools: allowedTools(
          providers[h.file.harnesses[harnessId]?.provider ?? '']?.capabilities.allowed_tools,
          tools,
        ),
        ...(tools?.deny_tools.length ? { deniedTools: tools.deny_tools } : {}),
        ...(resume ? { promptOverride: steer ?? RESUME_PROMPT } : {}),
        skill: (ref) => this.d.skills.text(ref),
        produces: typeof r.task.produces === 'string' ? r.task.produces : null,
      });
      if (!launch.ok) {
        unavailable.push(launch.reason);
        await this.fallback(r, cand.index, all.length, launch.reason);
        continue;
      }
      const model = launch.choice.model;
      const key = `${harnessId}|${model ?? ''}`;
      const until = this.limited.get(key);
      if (until !== undefined && until > Date.now()) {
        limitedUntil = Math.min(limitedUntil ?? until, until);
        await this.fallback(
          r,
          cand.index,
          all.length,
          `${key} is rate limited until ${new Date(until).toISOString()}`,
        );
        continue;
      }
      if (resolveExecutable(launch.argv[0]!) === null) {
        const reason = `${harnessId}: executable ${launch.argv[0]} is not installed here (not on PATH)`;
        unavailable.push(reason);
        await this.fallback(r, cand.index, all.length, reason);
        continue;
      }
      const env: Record<string, string> = { ...this.d.env(rec, r.repo), ...launch.env };
      if (artifact !== null) env.JIG_ARTIFACT_PATH = artifact;
      const { session, launched } = await this.d.sessions.start({
        itemId: rec.id,
        node: r.node,
        taskPath: r.task.path,
        kind: 'agent',
        argv: launch.argv,
        cwd: rec.worktree_path!,
        env,
        timeCapS: r.timeCapS,
        ...(r.brief !== undefined ? { brief: r.brief } : {}),
        agent: { harness: harnessId, provider: launch.provider, model },
      });
      // A steer is delivered once: the launch that carried it consumed it.
      if (steer) await updateItem(this.d.store.db, rec.id, { steer: null });
      r.onStart?.(session);
      const done = await this.d.sessions.finish(session, launched);
      last = done;
      if (done.status !== 'rate_limited') return { kind: 'session', session: done };
      const resetsAt = resetOf(done);
      this.limited.set(key, resetsAt);
      limitedUntil = Math.min(limitedUntil ?? resetsAt, resetsAt);
      await this.d.events.record(
        rec.id,
        'rate_limit_hit',
        {
          task: r.task.path,
          session: done.id,
          harness: harnessId,
          model,
          resets_at: new Date(resetsAt).toISOString(),
        },
        { node: r.node },
      );
      if (!(await this.stillRunning(rec.id))) return { kind: 'session', session: done };
      await this.fallback(
        r,
        cand.index,
        all.length,
        `rate limited until ${new Date(resetsAt).toISOString()}`,
      );
    }
    await this.d.events.record(
      r.rec.id,
      'launch_fallback_exhausted',
      {
        task: r.task.path,
        candidates: all.length,
        ...(limitedUntil !== null ? { resets_at: new Date(limitedUntil).toISOString() } : {}),
        unavailable,
      },
      { node: r.node },
    );
    if (limitedUntil !== null) {
      const until = new Date(limitedUntil).toISOString();
      await patchWalk(this.d.store.db, r.rec.id, (w) => ({ ...w, parked_until: until }));
      return {
        kind: 'refuse',
        stop: 'rate_limit',
        reason: `every launch of ${r.task.path} is rate limited; retrying at ${new Date(limitedUntil).toISOString()}`,
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
    return (await getItem(this.d.store.db, id))!;
  }

  private async stillRunning(id: string): Promise<boolean> {
    return (await this.fresh(id)).status === 'running';
  }

  /** The task's last session in this step when a pause ended it: its CLI session can be resumed. */
  private async pausedSession(r: AgentLaunchRequest): Promise<SessionRecord | null> {
    const since = r.rec.walk?.step_at ?? '';
    const mine = (await sessionsOf(this.d.store.db, r.rec.id)).filter(
      (s) => s.task_path === r.task.path && s.started_at >= since,
    );
    const lastOne = mine.at(-1);
    return lastOne && lastOne.status === 'paused' && lastOne.cli_session_id ? lastOne : null;
  }

  /** Why a cap already stops this launch, or null. */
  async overCap(r: Pick<AgentLaunchRequest, 'rec' | 'chain' | 'policy' | 'task'>): Promise<string | null> {
    const crossed = crossedCap({
      rec: await this.fresh(r.rec.id),
      chain: r.chain,
      policy: r.policy,
      taskPath: r.task.path,
      sessions: await sessionsOf(this.d.store.db, r.rec.id),
      dailySpent: await this.d.dailySpent(),
    });
    return crossed ? crossedReason(crossed) : null;
  }
}

/** The work item first (what to do), then the task's own instruction, then Jig's brief if any. */
function promptOf(rec: ItemRecord, task: ModelAgentTask, brief: string | undefined): string {
  const item = [`Work item ${rec.id}: ${rec.title}`, rec.description.trim()].filter(Boolean).join('\n\n');
  const base = typeof task.prompt === 'string' ? task.prompt : '';
  return [item, `Your task: ${base}`, brief ?? ''].filter((x) => x.trim() !== '').join('\n\n');
}

/** The tools granted per launch: policy's list (plus its grants), else the CLI's working set. */
function allowedTools(
  cap: { unrestricted?: string[]; grants?: Partial<Record<string, string>> } | undefined,
  tools: { allowed_tools: string[] | null; grants: string[]; deny_tools: string[] } | undefined,
): string[] | undefined {
  if (tools?.allowed_tools) {
    const granted = tools.grants.flatMap((g) => (cap?.grants?.[g] ? [cap.grants[g]] : []));
    return [...tools.allowed_tools, ...granted];
  }
  const all = cap?.unrestricted;
  if (!all) return undefined;
  return all.filter((t) => !(tools?.deny_tools ?? []).includes(t));
}

const DOCS_IGNORE = '# Jig documents for this work item; not part of the change.\n*\n';

/**
 * Where a task that produces a document writes it: `.jig/docs/` inside the worktree, beside a
 * `.gitignore` that keeps it out of commits. The worktree holds what the repository committed, so
 * `.jig` or `.jig/docs` may be a link out of it: the folders and the file are made without ever
 * following one out (an existing `.gitignore` that is a regular file is kept), else no launch.
 */
function artifactPath(
  worktree: string,
  kind: string,
): { ok: true; path: string } | { ok: false; reason: string } {
  const why = (rel: string, detail: string) => ({
    ok: false as const,
    reason: `cannot prepare ${rel} in the worktree for the ${kind} document: ${detail}; Jig writes only inside the worktree`,
  });
  const ignore = createInside(worktree, '.jig/.gitignore', Buffer.from(DOCS_IGNORE), 0o644);
  if (!ignore.ok && ignore.reason !== 'exists') return why('.jig/.gitignore', ignore.detail);
  const docs = makeFoldersInside(worktree, '.jig/docs');
  if (!docs.ok) return why('.jig/docs', docs.detail);
  return { ok: true, path: join(worktree, '.jig', 'docs', `${kind}.md`) };
}

/** When a rate-limited candidate may be tried again: the reset the CLI named, else a minute. */
function resetOf(s: SessionRecord): number {
  const at = (s.readout?.rate_limit as { resets_at?: string | null } | undefined)?.resets_at;
  const ms = at ? Date.parse(at) : NaN;
  return Number.isFinite(ms) && ms > Date.now() ? ms : Date.now() + 60_000;
}
