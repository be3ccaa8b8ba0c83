import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { StopKind } from '../../contract/item-status.js';
import { stamp, type Clock } from '../clock.js';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { PolicyFile } from '../../contract/config/policy.js';
import type {
  ModelAgentTask,
  ModelExecNode,
  ModelStep,
  ModelTask,
  ResolvedChain,
} from '../../core/chain/model.js';
import type { Store } from '../../store/database.js';
import { sessionsOf, type SessionRecord, type SessionStatus } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { StartedItem } from './started-item.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { documentPresent } from '../fs/worktree-document.js';
import { patchWalk } from '../../store/item-walk.js';
import type { Walk } from '../../contract/walk.js';
import { WalkFenced } from './claims.js';
import { skippedScopes } from '../../store/item-drafts.js';
import { worktreeSnapshot } from './read-only.js';
import type { WaitTarget } from '../../contract/config/task.js';
import { taskSpec, type ImmediateForge, type TaskSpec } from './task-spec.js';
import type { MemberRun } from './members.js';
import { passed, timeCapMinutes } from '../../core/chain/walk-rules.js';
import { clockAt, wallClockCrossed } from './wall-clock.js';

export interface TaskRun {
  task: ModelTask;
  status: SessionStatus;
  /** Null for a task that passed without running (a repo with no tests). */
  session: SessionRecord | null;
  /** The workspace member of a fanned-out run (`scope: each_repository`). */
  member?: string;
}

export type StepRun =
  | { kind: 'halt' }
  | { kind: 'refuse'; reason: string; stop?: StopKind; session?: string }
  | { kind: 'ran'; runs: TaskRun[]; violation?: { before: string; after: string } };

/** A launch's answer: the session it ran, or why it refused (which stops the item). */
export type Launched =
  { session: SessionRecord } | { refuse: { stop: StopKind; reason: string; session?: string } };

/** What every launch of a step's task names: the item, the node, the task, its cap, its brief, its member. */
export interface TaskLaunch<T extends ModelTask = ModelTask> {
  rec: ItemRecord;
  node: string;
  task: T;
  timeCapS: number | null;
  /** Jig's instruction for a repair or judge. */
  brief?: string | undefined;
  /** The workspace member of a fanned-out run, in whose worktree it runs. */
  member?: MemberRun | undefined;
}

/** An external wait's start: a task and its target, no cap or brief (nothing runs). */
export type WaitLaunch = Omit<TaskLaunch, 'timeCapS' | 'brief'> & { target: WaitTarget };

export interface StepHost {
  store: Store;
  clock: Clock;
  /** Stops the item when a wall clock of it ran out (recorded as the sweep records it); true if so. */
  clockStop(id: string): Promise<boolean>;
  /**
   * The walk fence (walk-fence.ts): whether the walk may go on, and, read inside the caller's
   * transaction, whether it may still write the item. Every change of the walk checks it, so a
   * takeover or a move that started the item anew is never written over.
   */
  fence: {
    stillRunning(id: string): Promise<boolean>;
    heldIn(db: Transaction<Database>, id: string): Promise<boolean>;
  };
  policy(rec: ItemRecord): PolicyFile | null;
  /** A workspace item's selected members, or why they cannot run (members.ts). */
  members(rec: ItemRecord): MemberRun[] | string;
  /** Whether the root's (or `member`'s) branch has commits past its base: a forge task skips it if not. */
  changed(rec: ItemRecord, member?: MemberRun): Promise<boolean>;
  /** Moves the root's member pointers when the workspace says `bump` (pointer-bump.ts); why not, or null. */
  bumpPointers(rec: ItemRecord, node: string): Promise<string | null>;
  /** How the step's tasks start (task-launches.ts). */
  launches: TaskLaunches;
  /** Lets go of what setup wrote and someone changed since, root and members (setup-output.ts). */
  releaseSetupOutput(rec: StartedItem): Promise<void>;
  /** A chain test's stub for a command task (EngineDeps.commandStub), or null to run its own. */
  commandStub(taskPath: string): string[] | null;
}

/** How a step's tasks start; each runs in the item's worktree, or in `member`'s for a fanned-out run. */
export interface TaskLaunches {
  /** A command task; refused (a config stop) when its sandbox cannot run here. */
  command(req: TaskLaunch & { argv: string[] }): Promise<Launched>;
  /** An agent task (harness, fallback, caps); a refusal stops the item. */
  agent(req: TaskLaunch<ModelAgentTask>): Promise<Launched>;
  /** A forge action on the item's merge request; a missing token or a refused one stops the item. */
  forge(req: TaskLaunch & { target: ImmediateForge }): Promise<Launched>;
  /** An external wait: the item waits (no slot) and the walk halts until the wait ends. */
  wait(req: WaitLaunch): Promise<Launched | { waiting: true }>;
}

/**
 * The document a task produced: the `artifact_ref` it reported (a path inside the worktree), else
 * the file at the path Jig gave it ($JIG_ARTIFACT_PATH) when it wrote one there. Recorded when it is
 * there at all, readable or not: one Jig will not read (over 10 MiB, a link out of the worktree, a
 * FIFO) is listed with its problem and refuses the gate that shows it, never read and never dropped.
 */
function reportedArtifact(s: SessionRecord, worktree: string, kind: string): string | null {
  const ref = s.result?.artifact_ref;
  if (typeof ref === 'string' && ref !== '') {
    const abs = resolve(worktree, ref);
    const rel = relative(worktree, abs);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel) && documentPresent(worktree, rel)) return rel;
  }
  const fallback = join('.jig', 'docs', `${kind}.md`);
  return documentPresent(worktree, fallback) ? fallback : null;
}

/** A lone task (judge, escalation) as a step, so it runs, caps and resumes like any other. */
export function stepOf(task: ModelTask): ModelStep {
  return { id: task.id, path: task.path, tasks: [task] };
}

/** One step to run for an item at a node, and how. */
export interface StepRequest {
  rec: StartedItem;
  repo: RepoEntry;
  chain: ResolvedChain;
  node: ModelExecNode;
  step: ModelStep;
  /** The node is read-only: the worktree is snapshotted before and compared after. */
  readOnly?: boolean;
  /** Jig's instruction for the step's agents (a repair's findings, a judge's question). */
  brief?: () => string;
  /** Only these tasks of the step run (a one-task retry); the others keep their last sessions. */
  only?: string[];
  /** A fanned-out task runs only for these members (a repair of what failed in them). */
  members?: ReadonlySet<string>;
}

/** One run of a step: a task, for a member when it fans out, and what to run. */
interface Unit {
  task: ModelTask;
  member: MemberRun | null;
  spec: TaskSpec;
}

/** A worktree snapshot over the root and every member, so a read-only step is held to all of them. */
async function snapshotAll(rec: StartedItem): Promise<string> {
  const members = (rec.workspace?.members ?? []).flatMap((m) => m.worktree_path ?? []);
  const paths = [rec.worktree_path!, ...members];
  const parts = await Promise.all(paths.map((p) => worktreeSnapshot(p)));
  return parts.length === 1 ? parts[0]! : parts.join('\n');
}

/**
 * The runs of a step: a `scope: each_repository` task of a workspace item once per selected member
 * (of `members`, when a repair is for some), any other task once, in the root's worktree. A fanned
 * forge task or rebase also runs for the root, last: members' merge requests open and merge before
 * the root's.
 */
function unitsOf(
  tasks: readonly ModelTask[],
  members: readonly MemberRun[],
  req: Pick<StepRequest, 'rec' | 'repo' | 'members' | 'step'>,
  skipped: ReadonlySet<string>,
  stub: StepHost['commandStub'],
): Unit[] {
  const specOf = (task: ModelTask, member: MemberRun | null): TaskSpec => {
    if (skipped.has(task.path) || skipped.has(req.step.path))
      return { kind: 'pass', note: 'skipped by an item draft' };
    const spec = taskSpec(
      task,
      member?.repo ?? req.repo,
      member?.baseBranch ?? req.rec.base_branch ?? 'HEAD',
    );
    // A chain test's stub runs in place of a command: a subprocess the chain defines rightly, any
    // builtin (what the repository lacks or has nothing to run for is not the chain's to test).
    const stubbable = task.kind === 'builtin' || (task.kind === 'subprocess' && spec.kind === 'process');
    const argv = stubbable ? stub(task.path) : null;
    return argv ? { kind: 'process', argv } : spec;
  };
  return tasks.flatMap((task) => {
    const fan = task.scope === 'each_repository' && members.length > 0;
    const chosen = members.filter((m) => !req.members || req.members.has(m.name));
    // The root takes part too where it has its own branch to publish or rebase.
    const rootToo = task.kind === 'forge' || (task.kind === 'builtin' && task.ref === 'jig.mr_rebase');
    const who = fan ? [...chosen, ...(rootToo ? [null] : [])] : [null];
    return who.map((member) => ({ task, member, spec: specOf(task, member) }));
  });
}

/**
 * Runs of a task that said `execution: sequential` go one member after another, as do a forge
 * task's (members first, the root last); the rest together.
 */
async function runUnits(units: Unit[], run: (u: Unit) => Promise<TaskRun>): Promise<TaskRun[]> {
  const byTask = new Map<string, Unit[]>();
  for (const u of units) byTask.set(u.task.path, [...(byTask.get(u.task.path) ?? []), u]);
  const groups = await Promise.all(
    [...byTask.values()].map(async (group) => {
      const t = group[0]!.task;
      const inTurn = (t.kind === 'builtin' && t.execution === 'sequential') || t.kind === 'forge';
      if (!(inTurn && group.length > 1)) return Promise.all(group.map(run));
      const out: TaskRun[] = [];
      for (const u of group) out.push(await run(u));
      return out;
    }),
  );
  return groups.flat();
}

/**
 * Runs the tasks of one step together. The step's start time is persisted first: after a restart the
 * walk comes back here and takes the sessions that already ended since then instead of launching
 * them again (a paused session is launched again). A `read_only` step is checked against a snapshot
 * of the worktree taken before it, persisted the same way.
 */
export async function runStep(host: StepHost, req: StepRequest): Promise<StepRun> {
  const { rec, chain, node, step, ...opts } = req;
  const db = host.store.db;
  const tasks = opts.only ? step.tasks.filter((t) => opts.only!.includes(t.path)) : step.tasks;
  const members = rec.workspace ? host.members(rec) : [];
  if (typeof members === 'string') return { kind: 'refuse', reason: members };
  // A step or task an applied item draft skipped passes without running (`scope_skipped`).
  const units = unitsOf(tasks, members, req, await skippedScopes(db, rec.id), (p) => host.commandStub(p));
  for (const { spec } of units) if (spec.kind === 'refuse') return { kind: 'refuse', reason: spec.reason };
  let walk = rec.walk;
  const resumed = walk.step_at ?? null;
  if (resumed === null) {
    // Checked before a launch too, not only by the sweep, so no task starts on a clock already run out.
    const late = wallClockCrossed({
      walk,
      chain,
      policy: host.policy(rec),
      override: rec.policy_override,
      now: host.clock.now(),
    });
    if (late) {
      await host.clockStop(rec.id);
      return { kind: 'halt' };
    }
    // Before the snapshot, so a read-only step is held to what it starts on.
    await host.releaseSetupOutput(rec);
    const before = opts.readOnly ? await snapshotAll(rec) : null;
    walk = await patchHeld(host, rec.id, (w) => ({
      ...w,
      step_at: new Date(host.clock.now()).toISOString(),
      step_clock: { ...clockAt(w, host.clock.now()), path: step.path },
      read_only_before: before,
    }));
  }
  const paths = new Set(tasks.map((t) => t.path));
  const earlier =
    resumed === null
      ? []
      : (await sessionsOf(db, rec.id)).filter(
          (s) =>
            paths.has(s.task_path) &&
            s.started_at >= resumed &&
            s.status !== 'running' &&
            s.status !== 'paused' &&
            s.status !== 'rate_limited' &&
            s.status !== 'waiting',
        );
  // A move (pause, a wall clock) may have stopped the item since the walk looked: launch nothing.
  if (!(await host.fence.stillRunning(rec.id))) return { kind: 'halt' };
  const brief = opts.brief?.();
  // The first launch refused (kept in a list: assigned inside the launches' callbacks).
  const refusals: { stop: StopKind; reason: string; session?: string }[] = [];
  // A launch that refused records why (the step stops on the first) and counts as not run.
  const settle = (task: ModelTask, who: { member?: string }, out: Launched): TaskRun => {
    if ('refuse' in out) {
      refusals.push(out.refuse);
      return { task, status: 'config_error', session: null, ...who };
    }
    return { task, status: out.session.status, session: out.session, ...who };
  };
  // Waits start once the step's other tasks have ended, and one at a time: the item waits on one.
  const waits: { task: ModelTask; target: WaitTarget; member: MemberRun | null }[] = [];
  const runs = await runUnits(units, async ({ task, member, spec }): Promise<TaskRun> => {
    const who = member ? { member: member.name } : {};
    const m = member ?? undefined;
    if (spec.kind === 'pass') return { task, status: 'done', session: null, ...who };
    const done = earlier
      .filter((s) => s.task_path === task.path && s.member === (member?.name ?? null))
      .at(-1);
    if (done) return { task, status: done.status, session: done, ...who };
    // The root's merge request carries its members' new pointers (members ran first: runUnits).
    if (spec.kind === 'forge' && rec.workspace && !member) {
      const why = await host.bumpPointers(rec, node.id);
      if (why) return settle(task, who, { refuse: { stop: 'infra', reason: why } });
    }
    // A workspace repository without commits on the branch has no merge request to open or wait on.
    const forgeWork = spec.kind === 'forge' || spec.kind === 'wait';
    if (forgeWork && rec.workspace && !(await host.changed(rec, m)))
      return { task, status: 'done', session: null, ...who };
    if (spec.kind === 'wait') {
      waits.push({ task, target: spec.target, member });
      return { task, status: 'waiting', session: null, ...who };
    }
    const cap = timeCapMinutes(chain, node, step, task, host.policy(rec), rec.policy_override);
    const capS = cap === null ? null : Math.round(cap * 60);
    const at = { rec, node: node.id, timeCapS: capS, member: m };
    if (spec.kind === 'agent')
      return settle(task, who, await host.launches.agent({ ...at, task: spec.task, brief }));
    if (spec.kind === 'forge')
      return settle(task, who, await host.launches.forge({ ...at, task, target: spec.target }));
    if (spec.kind !== 'process') return { task, status: 'config_error', session: null, ...who };
    return settle(task, who, await host.launches.command({ ...at, task, argv: spec.argv, brief }));
  });
  if (!(await host.fence.stillRunning(rec.id))) return { kind: 'halt' };
  const refusal = refusals[0];
  if (refusal) return { kind: 'refuse', ...refusal };
  const wait = waits[0];
  if (wait) {
    const out = await host.launches.wait({
      rec,
      node: node.id,
      task: wait.task,
      target: wait.target,
      member: wait.member ?? undefined,
    });
    if ('refuse' in out) return { kind: 'refuse', ...out.refuse };
    // The item waits now; the walk comes back to this step when the wait ends.
    return { kind: 'halt' };
  }
  for (const r of runs) {
    // A document is the root's: a member's run writes in its own worktree, which gates do not read.
    const produces = r.task.kind === 'agent' && r.member === undefined ? r.task.produces : undefined;
    if (produces === undefined || !r.session || !passed(r.status)) continue;
    const ref = reportedArtifact(r.session, rec.worktree_path!, produces);
    if (ref) await patchHeld(host, rec.id, (w) => ({ ...w, artifacts: { ...w.artifacts, [produces]: ref } }));
  }
  if (opts.readOnly && walk.read_only_before) {
    const after = await snapshotAll(rec);
    if (after !== walk.read_only_before)
      return { kind: 'ran', runs, violation: { before: walk.read_only_before, after } };
  }
  return { kind: 'ran', runs };
}

/** `patchWalk` while this process still walks the item (claims.ts `heldIn`), else WalkFenced. */
function patchHeld(host: StepHost, id: string, fn: (w: Walk) => Walk): Promise<Walk> {
  return host.store.db.transaction().execute(async (trx) => {
    if (!(await host.fence.heldIn(trx, id))) throw new WalkFenced(id);
    return patchWalk(trx, id, fn, stamp(host.clock));
  });
}
