import { ServerClosing } from '../workers/closing.js';
import { stamp } from '../clock.js';
import type { StopKind } from '../../contract/item-status.js';
import { filedSkip } from '../../core/chain/filed-skip.js';
import { passFiledSkip } from './filed-skips.js';
import { atNode, clockAt } from '../../core/chain/walk-state.js';
import { background } from '../background.js';
import { asStarted } from './started-item.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import { stoppedWalk } from '../../core/chain/walk-rules.js';
import { NodeRunner } from './node-runner.js';
import type { NodeHost } from './node-moves.js';
import type { Parking } from './parking.js';
import type { Escalations } from './escalation.js';
import { policyOf, itemOf, type EngineResources } from './resources.js';
import { WalkFenced } from './claims.js';
import type { Slots } from './slots.js';
import { startWalk, type Ready } from './walk-start.js';
import { changedSince, memberRuns } from './members.js';
import { releaseSetupOutput } from './setup-command.js';
import { bumpPointers } from './pointer-bump.js';
import type { WallClocks } from './wall-clock.js';
import type { Waits } from './waits.js';
import { Launches } from './task-launches.js';
import type { Blocking } from './blocking.js';
import type { Gates } from './gates.js';
import { reachGate } from './gate-walk.js';
import type { WalkRequests } from './walk-requests.js';
import type { UnitOfWork } from '../events/event-log.js';

/** The systems the walker calls, each built before it (engine.ts). */
export interface WalkerPeers {
  slots: Pick<Slots, 'freeze' | 'promote'>;
  gates: Pick<Gates, 'artifactPath'>;
  parking: Pick<Parking, 'park'>;
  escalations: Pick<Escalations, 'autoEscalate'>;
  clocks: Pick<WallClocks, 'stopIfCrossed'>;
  waits: Pick<Waits, 'start'>;
  blocking: Pick<Blocking, 'ended'>;
}

/**
 * Walks an item through its frozen chain: the start (walk-start.ts), then node after node (a gate
 * to the gates, an exec node to the node runner) until the item completes or stops.
 */
export class Walker {
  private readonly nodes: NodeRunner;

  constructor(
    private readonly r: EngineResources,
    private readonly p: WalkerPeers,
    walks: WalkRequests,
  ) {
    this.nodes = new NodeRunner(this.nodeHost());
    walks.answer((id) => this.kick(id));
  }

  private nodeHost(): NodeHost {
    const { r } = this;
    const cwdOf = (rec: ItemRecord): string => {
      if (rec.worktree_path === null) throw new Error(`work item ${rec.id} has no worktree`);
      return rec.worktree_path;
    };
    return {
      store: r.store,
      clock: r.clock,
      events: r.events,
      fence: r.fence,
      clockStop: (id) => this.p.clocks.stopIfCrossed(id),
      item: async (id) => asStarted(await itemOf(r, id)),
      policy: (rec) => policyOf(r, rec),
      members: (rec) => memberRuns(rec, (p) => r.repos.find(p)),
      bumpPointers: (rec, node) => this.bump(rec, node),
      changed: (rec, member) =>
        member ? changedSince(member.cwd, member.baseRef) : changedSince(cwdOf(rec), rec.base_ref),
      launches: new Launches(r, this.p.waits),
      releaseSetupOutput: (rec) => releaseSetupOutput(r, rec),
      commandStub: (path) => r.commandStub?.(path) ?? null,
    };
  }

  /** Runs the walk of an item in the background; a failure stops the item for a person, never crashes. */
  kick(id: string): void {
    if (this.r.life.closed) return;
    const walked = async (): Promise<void> => {
      // On a shared store the item may be another process's to walk (claims.ts).
      if (!(await this.r.claims.take(id))) return;
      this.r.claims.walked(id, true);
      try {
        await this.r.queues.serial(id, () => this.walkOnce(id));
      } finally {
        this.r.claims.walked(id, false);
      }
    };
    background(this.r.log, 'stopping an item whose walk failed', () => this.r.life.track(walked()), {
      item: id,
    });
  }

  /** One walk under the epoch it starts in; a failure stops the item, unless the walk was overtaken. */
  private async walkOnce(id: string): Promise<void> {
    const first = await itemOf(this.r, id);
    if (first.status !== 'running') return;
    try {
      await this.r.fence.within(first, () => this.walk(first));
    } catch (err) {
      // Overtaken (another process took the item over, or a move set it running anew): the item's
      // walk is the other one; this one just ends.
      if (err instanceof WalkFenced) {
        this.r.log.warn({ item: id }, err.message);
        return;
      }
      // The server closed while the walk waited on a task: the item stays running, its task is
      // adopted by the next start, and nothing is written to a store that is closing.
      if (err instanceof ServerClosing) return;
      this.r.log.error({ err, item: id }, 'walk failed');
      const rec = await getItem(this.r.store.db, id);
      const why = err instanceof Error ? err.message : String(err);
      if (rec?.status === 'running')
        await this.stop(rec, 'infra', `internal error: ${why}`, rec.current_node);
    }
  }

  private async walk(first: ItemRecord): Promise<void> {
    const id = first.id;
    const start = await startWalk(this.r, this.p.slots, id);
    if (start.kind === 'halt') return;
    if (start.kind === 'stop') return this.stop(first, start.stop, start.reason, start.node, start.session);
    await this.nodeLoop(start);
  }

  /** Node after node until the item completes, stops, or is stopped by a move. */
  private async nodeLoop(go: Ready): Promise<void> {
    const { repo } = go;
    const id = go.rec.id;
    for (;;) {
      const rec = await itemOf(this.r, id);
      if (rec.status !== 'running' || this.r.life.closed) return;
      // Read afresh at every node boundary: an applied item draft revises the chain of a running
      // item, and only nodes after the walk's index change, so the index still points where it did.
      const chain = rec.chain_definition ?? go.chain;
      const walk = rec.walk;
      if (walk === null)
        return this.stop(rec, 'infra', 'the item lost its walk while running', rec.current_node);
      const node = chain.nodes[walk.node];
      if (!node) return this.complete(rec);
      const filed =
        walk.entry === undefined ? filedSkip(node, rec.skip_nodes, Object.keys(rec.attachments)) : null;
      if (filed) {
        const refused = await passFiledSkip(this.r, rec, node.id, filed);
        if (refused) return this.stop(rec, 'infra', refused, node.id);
        continue;
      }
      if (node.kind === 'gate') {
        if ((await reachGate(this.r, { gates: this.p.gates, walker: this }, rec, chain, node)) === 'done')
          return;
        continue;
      }
      if (walk.entry === undefined) {
        const entered = await this.r.fence.write(this.r.events, id, async (uow) => {
          await updateItem(uow.db, id, {
            walk: { ...walk, entry: 1, phase: 'node', node_clock: clockAt(walk, this.r.clock.now()) },
            current_node: node.id,
            updated_at: stamp(this.r.clock),
          });
          await uow.emit({
            work_item_id: id,
            type: 'node_started',
            by: 'jig',
            node: node.id,
            payload: { node: node.id, step: walk.step },
          });
        });
        if (entered === 'fenced') return;
      } else if (rec.current_node !== node.id) {
        const placed = await this.r.fence.write(this.r.events, id, async (uow) => {
          await updateItem(uow.db, id, { current_node: node.id, updated_at: stamp(this.r.clock) });
        });
        if (placed === 'fenced') return;
      }
      const out = await this.nodes.run(id, chain, node, repo);
      if (out.kind === 'halt') return;
      if (out.kind === 'moved') continue;
      if (out.kind === 'stop') {
        const stopped = await itemOf(this.r, id);
        await this.nodeRunEnded(stopped, node.id);
        return this.stop(stopped, out.stop, out.reason, node.id, out.session);
      }
      // Read once after the node: review's attempt, the pointer bump and a stop all take this row.
      const after = await itemOf(this.r, id);
      await this.nodeRunEnded(after, node.id);
      const bump = await this.bump(after, node.id);
      if (bump) return this.stop(after, 'infra', bump, node.id);
      // Another process took the item over while the node ran, or a move started it anew: that
      // walk is the item's now.
      const advanced = await this.r.fence.write(this.r.events, id, async (uow, cur) => {
        if (!cur.walk) throw new Error(`work item ${id} lost its walk while node ${node.id} ran`);
        await updateItem(uow.db, id, {
          walk: atNode(cur.walk, cur.walk.node + 1),
          updated_at: stamp(this.r.clock),
        });
        await uow.emit({
          work_item_id: id,
          type: 'node_completed',
          by: 'jig',
          node: node.id,
          payload: { node: node.id, ...out.payload },
        });
      });
      if (advanced === 'fenced') return;
    }
  }

  /** Review records the worktree as that attempt; it never fails the walk. */
  private async nodeRunEnded(rec: ItemRecord, node: string): Promise<void> {
    await this.r.attempts?.recordAttempt(rec, node);
  }

  /**
   * A workspace item with `root_pointer_default: bump` moves its root's member pointers when a node
   * has moved member branches (pointer-bump.ts), so later nodes and the root's merge request see
   * them. Answers why it could not, or null.
   */
  async bump(rec: ItemRecord, node: string | null): Promise<string | null> {
    const id = rec.id;
    if (rec.workspace?.root_pointer !== 'bump') return null;
    const out = await bumpPointers(this.r, rec);
    if (!out.ok) return out.reason;
    if (out.commit === null) return null;
    await this.r.events.record(
      id,
      'root_pointers_bumped',
      { commit: out.commit, members: out.moves },
      { node },
    );
    return null;
  }

  /**
   * The walk stops a running item: for a person, at a gate, or on a rate limit (parked until its
   * reset). A move that got there first (a pause, a wall clock) keeps its own stop.
   */
  async stop(
    rec: ItemRecord,
    kind: StopKind,
    reason: string,
    node: string | null,
    session?: string | null,
  ): Promise<void> {
    // A move got there first, or another process took the item over: theirs stands.
    const stopped = await this.r.fence.write(
      this.r.events,
      rec.id,
      async (uow, cur) => {
        const w = cur.walk;
        await updateItem(uow.db, rec.id, {
          status: 'stopped',
          stop_kind: kind,
          stop_reason: reason,
          current_node: node,
          updated_at: stamp(this.r.clock),
          ...(w ? { walk: stoppedWalk(w, kind, this.r.clock.now()) } : {}),
        });
        const stop = { work_item_id: rec.id, by: 'jig' as const, node };
        if (kind !== 'gate') {
          await uow.emit({
            ...stop,
            type: 'work_item_needs_human',
            payload: { kind, reason, ...(session ? { session } : {}) },
          });
          return;
        }
        // The request a person's decision names: the seq of this event (docs/chains.md, "Gates").
        const asked = await uow.emit({
          ...stop,
          type: 'gate_requested',
          payload: { gate: node, message: reason },
        });
        await updateItem(uow.db, rec.id, { gate_request: asked.seq });
      },
      { running: true },
    );
    if (stopped === 'fenced') return;
    if (kind === 'rate_limit') await this.p.parking.park(rec.id);
    if (kind === 'stuck') {
      const escalate = () => this.p.escalations.autoEscalate(rec.id);
      setImmediate(() => background(this.r.log, 'automatic escalation', escalate, { item: rec.id }));
    }
    this.p.slots.promote();
  }

  private async complete(rec: ItemRecord): Promise<void> {
    // A person's move that ended the item meanwhile keeps its ending; a takeover, its walk.
    const write = async (uow: UnitOfWork): Promise<void> => {
      const now = stamp(this.r.clock);
      await updateItem(uow.db, rec.id, {
        status: 'completed',
        ended_at: now,
        current_node: null,
        updated_at: now,
      });
      await uow.emit({ work_item_id: rec.id, type: 'work_item_completed', by: 'jig', payload: {} });
    };
    const done = await this.r.fence.write(this.r.events, rec.id, write, { running: true });
    // Its dependents go first: one that can start now competes for the slot it freed.
    if (done !== 'fenced') {
      await this.p.blocking
        .ended(rec.id)
        .catch((err: unknown) =>
          this.r.log.error({ err, item: rec.id }, 'starting the items that come after it failed'),
        );
    }
    this.p.slots.promote();
  }
}
