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
import type { StartedItem } from '../../store/started-item.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { documentReadable } from '../fs/worktree-document.js';
import { patchWalk } from '../../store/item-walk.js';
import { skippedScopes } from '../../store/item-drafts.js';
import { worktreeSnapshot } from './read-only.js';
import type { WaitTarget } from '../../contract/config/task.js';
import { taskSpec, type ImmediateForge } from './task-spec.js';
import { passed, timeCapMinutes } from './walk-helpers.js';
import { clockAt, wallClockCrossed } from './wall-clock.js';

export interface TaskRun {
  task: ModelTask;
  status: SessionStatus;
  /** Null for a task that passed without running (a repo with no tests). */
  session: SessionRecord | null;
}

export type StepRun =
  | { kind: 'halt' }
  | { kind: 'refuse'; reason: string; stop?: StopKind; session?: string }
  | { kind: 'ran'; runs: TaskRun[]; violation?: { before: string; after: string } };

/** A launch's answer: the session it ran, or why it refused (which stops the item). */
export type Launched =
  { session: SessionRecord } | { refuse: { stop: StopKind; reason: string; session?: string } };

export interface StepHost {
  store: Store;
  clock: Clock;
  /** Stops the item when a wall clock of it ran out (recorded as the sweep records it); true if so. */
  clockStop(id: string): Promise<boolean>;
  stillRunning(id: string): Promise<boolean>;
  policy(rec: ItemRecord): PolicyFile | null;
  launch(
    rec: ItemRecord,
    node: string,
    task: ModelTask,
    argv: string[],
    timeCapS: number | null,
    brief?: string,
  ): Promise<SessionRecord>;
  /** Launches an agent task (harness, fallback, caps); a refusal stops the item. */
  launchAgent(
    rec: ItemRecord,
    node: string,
    task: ModelAgentTask,
    timeCapS: number | null,
    brief?: string,
  ): Promise<Launched>;
  /** Runs a forge action on the item's merge request; a missing token or a refused one stops the item. */
  launchForge(
    rec: ItemRecord,
    node: string,
    task: ModelTask,
    target: ImmediateForge,
    timeCapS: number | null,
  ): Promise<Launched>;
  /** Starts an external wait: the item waits (no slot) and the walk halts until the wait ends. */
  startWait(
    rec: ItemRecord,
    node: string,
    task: ModelTask,
    target: WaitTarget,
  ): Promise<Launched | { waiting: true }>;
}

/**
 * The document a task produced: the `artifact_ref` it reported (a path inside the worktree), else
 * the file at the path Jig gave it ($JIG_ARTIFACT_PATH) when it wrote one there. Either must be a
 * document Jig would read (worktree-document.ts): a link out of the worktree or a FIFO is none.
 */
function reportedArtifact(s: SessionRecord, worktree: string, kind: string): string | null {
  const ref = s.result?.artifact_ref;
  if (typeof ref === 'string' && ref !== '') {
    const abs = resolve(worktree, ref);
    const rel = relative(worktree, abs);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel) && documentReadable(worktree, rel)) return rel;
  }
  const fallback = join('.jig', 'docs', `${kind}.md`);
  return documentReadable(worktree, fallback) ? fallback : null;
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
}

/**
 * Runs the tasks of one step together. The step's start time is persisted first: after a restart the
 * walk comes back here and takes the sessions that already ended since then instead of launching
 * them again (a paused session is launched again). A `read_only` step is checked against a snapshot
 * of the worktree taken before it, persisted the same way.
 */
export async function runStep(host: StepHost, req: StepRequest): Promise<StepRun> {
  const { rec, repo, chain, node, step, ...opts } = req;
  const db = host.store.db;
  const tasks = opts.only ? step.tasks.filter((t) => opts.only!.includes(t.path)) : step.tasks;
  // A step or task an applied item draft skipped passes without running (`scope_skipped`).
  const skipped = await skippedScopes(db, rec.id);
  const specs = tasks.map((t) => ({
    task: t,
    spec:
      skipped.has(t.path) || skipped.has(step.path)
        ? { kind: 'pass' as const, note: 'skipped by an item draft' }
        : taskSpec(t, repo, rec.base_branch ?? 'HEAD'),
  }));
  for (const { spec } of specs) if (spec.kind === 'refuse') return { kind: 'refuse', reason: spec.reason };
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
    const before = opts.readOnly ? await worktreeSnapshot(rec.worktree_path!) : null;
    walk = await patchWalk(
      db,
      rec.id,
      (w) => ({
        ...w,
        step_at: new Date(host.clock.now()).toISOString(),
        step_clock: { ...clockAt(w, host.clock.now()), path: step.path },
        read_only_before: before,
      }),
      stamp(host.clock),
    );
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
  if (!(await host.stillRunning(rec.id))) return { kind: 'halt' };
  const brief = opts.brief?.();
  // The first launch refused (kept in a list: assigned inside the launches' callbacks).
  const refusals: { stop: StopKind; reason: string; session?: string }[] = [];
  // A launch that refused records why (the step stops on the first) and counts as not run.
  const settle = (task: ModelTask, out: Launched): TaskRun => {
    if ('refuse' in out) {
      refusals.push(out.refuse);
      return { task, status: 'config_error', session: null };
    }
    return { task, status: out.session.status, session: out.session };
  };
  // Waits start once the step's other tasks have ended, and one at a time: the item waits on one.
  const waits: { task: ModelTask; target: WaitTarget }[] = [];
  const runs = await Promise.all(
    specs.map(async ({ task, spec }): Promise<TaskRun> => {
      if (spec.kind === 'pass') return { task, status: 'done', session: null };
      const done = earlier.filter((s) => s.task_path === task.path).at(-1);
      if (done) return { task, status: done.status, session: done };
      if (spec.kind === 'wait') {
        waits.push({ task, target: spec.target });
        return { task, status: 'waiting', session: null };
      }
      const cap = timeCapMinutes(chain, node, step, task, host.policy(rec), rec.policy_override);
      if (spec.kind === 'agent') {
        const out = await host.launchAgent(
          rec,
          node.id,
          spec.task,
          cap === null ? null : Math.round(cap * 60),
          brief,
        );
        return settle(task, out);
      }
      if (spec.kind === 'forge') {
        const out = await host.launchForge(
          rec,
          node.id,
          task,
          spec.target,
          cap === null ? null : Math.round(cap * 60),
        );
        return settle(task, out);
      }
      if (spec.kind !== 'process') return { task, status: 'config_error', session: null };
      const s = await host.launch(
        rec,
        node.id,
        task,
        spec.argv,
        cap === null ? null : Math.round(cap * 60),
        brief,
      );
      return { task, status: s.status, session: s };
    }),
  );
  if (!(await host.stillRunning(rec.id))) return { kind: 'halt' };
  const refusal = refusals[0];
  if (refusal) return { kind: 'refuse', ...refusal };
  const wait = waits[0];
  if (wait) {
    const out = await host.startWait(rec, node.id, wait.task, wait.target);
    if ('refuse' in out) return { kind: 'refuse', ...out.refuse };
    // The item waits now; the walk comes back to this step when the wait ends.
    return { kind: 'halt' };
  }
  for (const r of runs) {
    const produces = r.task.kind === 'agent' ? r.task.produces : undefined;
    if (produces === undefined || !r.session || !passed(r.status)) continue;
    const ref = reportedArtifact(r.session, rec.worktree_path!, produces);
    if (ref)
      await patchWalk(
        db,
        rec.id,
        (w) => ({ ...w, artifacts: { ...w.artifacts, [produces]: ref } }),
        stamp(host.clock),
      );
  }
  if (opts.readOnly && walk.read_only_before) {
    const after = await worktreeSnapshot(rec.worktree_path!);
    if (after !== walk.read_only_before)
      return { kind: 'ran', runs, violation: { before: walk.read_only_before, after } };
  }
  return { kind: 'ran', runs };
}
