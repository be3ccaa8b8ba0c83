import { stamp } from '../clock.js';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import { atNode, hold } from '../../core/chain/walk-state.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import { pauseFirst, refuseEnded, rowOf, wrongStatus } from './move-guards.js';
import type { UnitOfWork } from '../events/event-log.js';
import { itemOf, type EngineResources } from './resources.js';
import { planRetry, type RetryOptions } from './retry-plan.js';
import { chainToRun, checkTaskSteers } from './task-steers.js';
import { planSkip } from './skip-plan.js';
import { setTaskSteers } from '../../store/task-steers.js';
import { sessionsOf } from '../../store/sessions.js';
import type { SessionEnds } from './session-ends.js';
import type { Blocking } from './blocking.js';
import type { Slots } from './slots.js';
import type { WalkRequests } from './walk-requests.js';

/**
 * A person's commands on an item (resume, pause, steer, retry, skip, raise its budget, report
 * progress). Each is decided on the row inside one transaction that writes it with its event;
 * an item it sets running is handed to the walker.
 */
export class PersonMoves {
  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'claim' | 'promote'>,
    private readonly walks: WalkRequests,
    private readonly sessions: Pick<SessionEnds, 'end'>,
    private readonly blocking: Pick<Blocking, 'gate'>,
  ) {}

  /**
   * Decides the move on the row as it is inside its transaction, then kicks the walk when the item
   * ended up running. Never in the item's queue: a move answers at once, whatever the walk is doing
   * (a running node holds the queue until it ends), and what it decided on is what it writes over.
   */
  private async then(
    id: string,
    move: (uow: UnitOfWork, rec: ItemRecord) => Promise<boolean>,
  ): Promise<ItemRecord> {
    const go = await this.r.events.transact(async (uow) => move(uow, await rowOf(uow, id)));
    const after = await itemOf(this.r, id);
    if (go && after.status === 'running') this.walks.walk(id);
    return after;
  }

  /**
   * Starts a paused item (first start or resume); the note becomes the next launch's steer. An item
   * that comes after one not completed yet is blocked instead, and starts when they have.
   */
  resume(
    id: string,
    note: string | undefined,
    by: EventActor,
    steers: Readonly<Record<string, string>> = {},
  ): Promise<ItemRecord> {
    return this.then(id, async (uow, rec) => {
      if (rec.status === 'running' || rec.status === 'queued') return false;
      const perTask = Object.keys(steers).length > 0;
      if (perTask) checkTaskSteers(rec, this.r.config, steers);
      const keep = async (): Promise<void> => {
        if (note) await updateItem(uow.db, id, { steer: note });
        if (perTask) await setTaskSteers(uow.db, id, steers, stamp(this.r.clock));
      };
      // Already blocked: it starts when they complete; the notes wait for that start.
      if (rec.status === 'blocked') {
        await keep();
        return false;
      }
      if (rec.status !== 'paused') throw wrongStatus(rec, 'only a paused item can be resumed', ['paused']);
      if (this.r.config.newWorkBlocked && rec.walk === null) {
        throw new JigError('new_work_refused', this.r.config.newWorkBlocked);
      }
      if (await this.blocking.gate(uow, rec, by, note)) {
        if (perTask) await setTaskSteers(uow.db, id, steers, stamp(this.r.clock));
        return false;
      }
      await keep();
      const status = await this.slots.claim(uow, rec, by);
      await uow.emit({
        work_item_id: id,
        type: rec.walk === null ? 'work_item_started' : 'work_item_resumed',
        by,
        payload: { status, ...(note ? { note } : {}), ...(perTask ? { steers: { ...steers } } : {}) },
      });
      return true;
    });
  }

  /**
   * Stops a running, queued, waiting or blocked item; its sessions end (SIGTERM, then SIGKILL after
   * 10 s; a wait ends as `paused`, and resuming waits anew; a blocked item keeps what it comes
   * after, and resuming it blocks it again until they complete). Decided on
   * the row inside the transaction: pause runs beside the walk, not in the item's queue.
   */
  async pause(id: string, by: EventActor): Promise<ItemRecord> {
    const paused = await this.r.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec) throw new JigError('item_not_found', { id });
      if (rec.status === 'paused') return false;
      const pausable = ['running', 'queued', 'waiting', 'blocked'] as const;
      if (!(pausable as readonly string[]).includes(rec.status)) {
        throw wrongStatus(rec, 'only a running, queued, waiting or blocked item can be paused', pausable);
      }
      // Marked paused first, so the walk sees it and stops; then the processes are ended.
      await updateItem(uow.db, id, {
        status: 'paused',
        queued_at: null,
        updated_at: stamp(this.r.clock),
        ...(rec.walk ? { walk: hold(rec.walk, this.r.clock.now()) } : {}),
        // What a blocked item said about a dependency that will never complete is said again at its next start.
        ...(rec.status === 'blocked' ? { stop_kind: null, stop_reason: null, suggested_action: null } : {}),
      });
      await uow.emit({ work_item_id: id, type: 'work_item_paused', by, payload: { from: rec.status } });
      return true;
    });
    if (paused) {
      await this.sessions.end(id);
      this.slots.promote();
    }
    return itemOf(this.r, id);
  }

  steer(id: string, note: string, by: EventActor): Promise<ItemRecord> {
    return this.then(id, async (uow, rec) => {
      if (rec.status !== 'paused' && rec.status !== 'stopped' && rec.status !== 'blocked') {
        throw wrongStatus(rec, `a steer is stored for a paused, blocked or stopped item${pauseFirst(rec)}`, [
          'paused',
          'blocked',
          'stopped',
        ]);
      }
      await updateItem(uow.db, id, { steer: note, updated_at: stamp(this.r.clock) });
      await uow.emit({ work_item_id: id, type: 'steer_context_set', by, payload: { note } });
      return false;
    });
  }

  /**
   * Reruns the node the item stopped on (not a gate: a gate is approved or rejected), or an earlier
   * point given by `path` (`node`, `node.step`, `node.step.task`). A person's retry is a fresh entry:
   * recovery, fix-loop counters and escalation reset; the steer goes to the next agent launch.
   */
  retry(id: string, by: EventActor, opts: RetryOptions = {}): Promise<ItemRecord> {
    return this.then(id, async (uow, rec) => {
      const plan = planRetry(rec, opts, await sessionsOf(uow.db, id));
      await updateItem(uow.db, id, {
        walk: plan.walk,
        current_node: plan.node,
        ...(opts.steer ? { steer: opts.steer } : {}),
        ...(plan.nodeOverrides ? { node_overrides: plan.nodeOverrides } : {}),
      });
      if (plan.nodeOverrides) {
        await uow.emit({
          work_item_id: id,
          type: 'node_overrides_changed',
          by,
          payload: { value: plan.nodeOverrides },
        });
      }
      await uow.emit({
        work_item_id: id,
        type: 'work_item_retried',
        by,
        node: plan.node,
        payload: plan.payload,
      });
      if (await this.blocking.gate(uow, rec, by)) return false;
      await this.slots.claim(uow, rec, by);
      return true;
    });
  }

  /**
   * Advances past the current node or gate without running it; with a path, marks a node still to
   * come, or steps and tasks of the current node not run yet, to pass (skip-plan.ts).
   */
  skip(id: string, note: string | undefined, by: EventActor, path?: string): Promise<ItemRecord> {
    return this.then(id, async (uow, rec) => {
      if (path !== undefined) {
        refuseEnded(rec);
        const plan = planSkip(rec, chainToRun(rec, this.r.config), path);
        if (plan.kind === 'ahead') return this.skipAhead(uow, rec, plan.skipNodes, by, note);
        if (plan.kind === 'inside') {
          await updateItem(uow.db, id, { walk: plan.walk, updated_at: stamp(this.r.clock) });
          await uow.emit({
            work_item_id: id,
            type: 'node_skipped',
            by,
            node: plan.node,
            payload: { node: plan.node, path: plan.path, ...(note ? { note } : {}) },
          });
          if (rec.status === 'stopped') await this.slots.claim(uow, rec, by);
          return rec.status === 'stopped';
        }
      }
      const { walk, chain_definition: chain } = rec;
      if ((rec.status !== 'stopped' && rec.status !== 'paused') || !walk || !chain) {
        throw wrongStatus(rec, `only a stopped or paused item that has started can skip${pauseFirst(rec)}`, [
          'stopped',
          'paused',
        ]);
      }
      const node = chain.nodes[walk.node];
      if (!node) throw wrongStatus(rec, 'it is past its last node', []);
      if (node.skippable === false) {
        throw new JigError('node_not_skippable', { node: node.id }, { status: rec.status, node: node.id });
      }
      await updateItem(uow.db, id, {
        walk: atNode(walk, walk.node + 1),
        // A gate skipped is a gate no longer waiting: its request is answered.
        gate_request: null,
        updated_at: stamp(this.r.clock),
      });
      await uow.emit({
        work_item_id: id,
        type: 'node_skipped',
        by,
        node: node.id,
        payload: { node: node.id, ...(note ? { note } : {}) },
      });
      if (rec.status === 'stopped') await this.slots.claim(uow, rec, by);
      return true;
    });
  }

  /** A node still to come joins the nodes the item passes: the walk passes it when it gets there. */
  private async skipAhead(
    uow: UnitOfWork,
    rec: ItemRecord,
    skipNodes: string[],
    by: EventActor,
    note: string | undefined,
  ): Promise<false> {
    if (skipNodes.length === rec.skip_nodes.length) return false;
    await updateItem(uow.db, rec.id, { skip_nodes: skipNodes, updated_at: stamp(this.r.clock) });
    await uow.emit({
      work_item_id: rec.id,
      type: 'skip_nodes_changed',
      by,
      payload: { from: rec.skip_nodes, to: skipNodes, ...(note ? { note } : {}) },
    });
    return false;
  }

  /** A worker reports that it started a task of the item's plan. */
  async progress(
    id: string,
    task: string,
    by: EventActor,
  ): Promise<{ work_item_id: string; task: string; seq: number }> {
    const rec = await itemOf(this.r, id);
    refuseEnded(rec);
    const ev = await this.r.events.record(id, 'plan_progress', { task }, { by, node: rec.current_node });
    return { work_item_id: id, task, seq: ev.seq };
  }

  /** Raises the item's own dollar cap above what it has spent; an item stopped on its budget runs again. */
  raiseBudget(id: string, capUsd: number, by: EventActor): Promise<ItemRecord> {
    return this.then(id, async (uow, rec) => {
      refuseEnded(rec);
      if (capUsd <= rec.spent_usd) {
        const amounts = { cap_usd: capUsd, spent_usd: rec.spent_usd };
        throw new JigError('budget_not_raised', amounts, amounts);
      }
      const walk = rec.status === 'stopped' && rec.stop_kind === 'budget' ? rec.walk : null;
      const retry = walk !== null;
      await updateItem(uow.db, id, {
        budget_usd: capUsd,
        // Retried as `retry` does: the node reruns from a fresh entry.
        ...(walk ? { walk: atNode(walk, walk.node) } : {}),
        updated_at: stamp(this.r.clock),
      });
      await uow.emit({
        work_item_id: id,
        type: 'budget_raised',
        by,
        node: rec.current_node,
        payload: { from: rec.budget_usd, to: capUsd, spent_usd: rec.spent_usd, retried: retry },
      });
      if (retry) await this.slots.claim(uow, rec, by);
      return retry;
    });
  }
}
