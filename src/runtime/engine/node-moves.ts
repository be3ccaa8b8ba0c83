import type { RepoEntry } from '../../contract/config/repos.js';
import type { EventKind, EventPayload } from '../../contract/event-kinds.js';
import type { EventActor } from '../../contract/events.js';
import type { Walk } from '../../contract/walk.js';
import type { ModelExecNode, ResolvedChain } from '../../core/chain/model.js';
import type { NewEventOf } from '../../store/events.js';
import { patchWalk } from '../../store/item-walk.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { stamp } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import { WalkFenced } from './claims.js';
import type { StartedItem } from './started-item.js';
import type { StepHost } from './step-runner.js';

/*
 * What the node runner and its parts (fix loop, base change, member rebase) share while a node
 * runs: the host the walker gives them, the node being run, and its fenced moves of the walk.
 */

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
    if (!(await ctx.h.fence.heldIn(uow.db, ctx.id))) throw new WalkFenced(ctx.id);
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
