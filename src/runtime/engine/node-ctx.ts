import { stamp } from '../clock.js';
import type { StartedItem } from './started-item.js';
import type { StopKind } from '../../contract/item-status.js';
import type { Walk } from '../../contract/walk.js';
import type { EventKind, EventPayload } from '../../contract/event-kinds.js';
import type { EventActor } from '../../contract/events.js';
import type { ModelExecNode, ModelPlan, ModelTask, ResolvedChain } from '../../core/chain/model.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import type { NewEventOf } from '../../store/events.js';
import type { EventLog } from '../events/event-log.js';
import { patchWalk } from '../../store/item-walk.js';
import type { StepHost, TaskRun } from './step-runner.js';
import { stopKindOf, worstStatus } from '../../core/chain/walk-rules.js';
import { WalkFenced } from './claims.js';

/** How running a node ended: it completed, it stops the item, or the item stopped running under it. */
export type NodeOutcome =
  | { kind: 'completed'; payload: Omit<EventPayload<'node_completed'>, 'node'> }
  | { kind: 'stop'; stop: StopKind; reason: string; session: string | null }
  | { kind: 'halt' }
  /** The walk was moved to another node (a restart on a new base). */
  | { kind: 'moved' };

export interface NodeHost extends StepHost {
  events: EventLog;
  /** The item as the walk reads it: started (a frozen chain and a walk). */
  item(id: string): Promise<StartedItem>;
}

export interface NodeCtx {
  h: NodeHost;
  id: string;
  chain: ResolvedChain;
  node: ModelExecNode;
  repo: RepoEntry;
}

export const stopOf = (stop: StopKind, reason: string, session: string | null = null): NodeOutcome => ({
  kind: 'stop',
  stop,
  reason,
  session,
});

/** A failure that skips recovery, the fix loop and escalation: config, question, cap, infra. */
export function hardStop(runs: readonly TaskRun[]): NodeOutcome | null {
  const worst = worstStatus(runs.map((r) => r.status));
  if (worst === null || worst === 'failed') return null;
  const bad = runs.find((r) => r.status === worst)!;
  return stopOf(stopKindOf[worst] ?? 'infra', failureReason(bad), bad.session?.id ?? null);
}

/** What a failure says: the task's path, how it ended, its session; a question when it asked one. */
export function failureReason(r: {
  task: { path: string };
  status: TaskRun['status'];
  session: TaskRun['session'];
}): string {
  const question = r.session?.result?.question;
  if (r.status === 'needs_context' && typeof question === 'string' && question)
    return `${r.task.path} asks: ${question}`;
  if (r.session?.note && r.status !== 'failed')
    return `${r.task.path}: ${r.session.note} (session ${r.session.id}; jig view logs)`;
  return `${r.task.path} ended ${r.status}${r.session ? ` (session ${r.session.id}; jig view logs)` : ''}`;
}

/** The kinds whose payload names the node they concern. */
export type NodeEventKind = {
  [K in EventKind]: EventPayload<K> extends { node: string } ? K : never;
}[EventKind];

/** An event of the node being run, as `move` takes it: the node is added to its payload. */
export type NodeEvent<K extends NodeEventKind = NodeEventKind> = {
  [P in K]: { type: P; payload: Omit<EventPayload<P>, 'node'>; by?: EventActor };
}[K];

function atNode<K extends NodeEventKind>(ctx: NodeCtx, e: NodeEvent<K>): NewEventOf<K> {
  // The payload with the one key its type left out put back (first, as it always was): the compiler
  // cannot follow a generic kind through the spread.
  const payload = { node: ctx.node.id, ...e.payload } as EventPayload<K>;
  return { work_item_id: ctx.id, type: e.type, by: e.by ?? 'jig', node: ctx.node.id, payload };
}

/**
 * Changes the walk and records the events of that change in one transaction, while this process
 * still holds the item (else WalkFenced ends the walk: the process that took it over walks it).
 */
export async function move(ctx: NodeCtx, fn: (w: Walk) => Walk, events: NodeEvent[]): Promise<void> {
  await ctx.h.events.transact(async (uow) => {
    if (!(await ctx.h.heldIn(uow.db, ctx.id))) throw new WalkFenced(ctx.id);
    await patchWalk(uow.db, ctx.id, fn, stamp(ctx.h.clock));
    for (const e of events) await uow.emit(atNode(ctx, e));
  });
}

/** The sessions of the measurement in progress, in the order they ran. */
export async function measuredSessions(ctx: NodeCtx, walk: Walk): Promise<SessionRecord[]> {
  // In the order the walk measured them (each step's tasks in their order), not by start time:
  // tasks of a step start together, and the first failure named must not depend on which won.
  const byId = new Map((await sessionsOf(ctx.h.store.db, ctx.id)).map((s) => [s.id, s]));
  return [...new Set(walk.measured ?? [])].flatMap((id) => byId.get(id) ?? []);
}

/** Every task of the node's own steps, by path. */
export function nodeTasks(node: ModelExecNode): Map<string, ModelTask> {
  return new Map(node.steps.flatMap((s) => s.tasks.map((t) => [t.path, t] as const)));
}

/** The recovery plan for a failed task: its own `on_failure`, else its step's, else the node's. */
export function nearestHandler(node: ModelExecNode, taskPath: string): ModelPlan | null {
  for (const step of node.steps) {
    const task = step.tasks.find((t) => t.path === taskPath);
    if (task) return task.on_failure ?? step.on_failure ?? node.on_failure ?? null;
  }
  return node.on_failure ?? null;
}

export function planAt(node: ModelExecNode, path: string | null | undefined): ModelPlan | null {
  if (!path) return null;
  const all = [
    node.on_failure,
    ...node.steps.flatMap((s) => [s.on_failure, ...s.tasks.map((t) => t.on_failure)]),
  ];
  return all.find((p) => p?.path === path) ?? null;
}
