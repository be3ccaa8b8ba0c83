import type { Walk } from '../../contract/walk.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { EventActor } from '../../contract/events.js';
import { JigError } from '../../contract/errors.js';
import type { ReattachSummary } from '../../contract/health.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ModelNode, ResolvedChain } from '../../core/chain/model.js';
import type { Store } from '../../store/database.js';
import { runningSessions, sessionsOf, spentSince, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { ConfigState } from '../config/config-state.js';
import { documentReadable, readDocument } from '../fs/worktree-document.js';
import type { EventLog, UnitOfWork } from '../events/event-log.js';
import type { HomePaths } from '../home/paths.js';
import type { ReposService } from '../repos/repos-service.js';
import { isSameProcess } from '../process/proc-info.js';
import { HarnessCatalog } from '../harness/catalog.js';
import { SkillCatalog } from '../harness/skills.js';
import { countedTokens } from './agent-session.js';
import { AgentRunner } from './agent-runner.js';
import { crossedCap, crossedReason } from './spend.js';
import { autoReviewApplies, runAutoReview } from './gate-review.js';
import { Escalations } from './escalation.js';
import { Parking } from './parking.js';
import { NodeRunner } from './node-runner.js';
import { atNode } from './node-state.js';
import { SessionRunner } from './session-runner.js';
import { taskEnv } from './task-spec.js';
import { passed, rejectTarget, stopKindOf } from './walk-helpers.js';
import { prepareWorktree } from './worktree.js';
import { planRetry, type RetryOptions } from './retry-plan.js';
import { clockAt, hold, release, WallClocks } from './wall-clock.js';
import { firstWalk } from '../../core/chain/walk-state.js';
import type { Clock } from '../clock.js';
import type { StopKind } from '../../contract/item-status.js';

/**
 * The item waits on this gate: stopped at it for a person, or stopped there by a wall clock (a gate
 * that timed out, or a total cap reached while it waited), since then the gate stays open.
 */
function gateOpen(rec: ItemRecord, gate: string): boolean {
  const chain = rec.chain_definition;
  const node = chain && rec.walk ? chain.nodes[rec.walk.node] : undefined;
  return (
    rec.status === 'stopped' &&
    rec.current_node === gate &&
    node?.kind === 'gate' &&
    node.id === gate &&
    (rec.stop_kind === 'gate' || rec.stop_kind === 'cap')
  );
}

/**
 * The walk as an item stops: a gate starts its clock; a stop for a person holds the wall clocks,
 * like a pause (a rate-limit park is a wait and keeps them running).
 */
function stoppedWalk(w: Walk, kind: StopKind, at: number): Walk {
  if (kind === 'gate') return w.gate_clock ? w : { ...w, gate_clock: clockAt(w, at) };
  return kind === 'rate_limit' ? w : hold(w, at);
}

export interface EngineDeps {
  store: Store;
  events: EventLog;
  config: ConfigState;
  repos: ReposService;
  paths: HomePaths;
  log: Logger;
  /** Where tasks can reach the server, for $JIG_DAEMON_PORT. */
  port: () => number;
  /** The runtime's one clock (runtime/clock.ts): tests move it instead of sleeping. */
  clock: Clock;
}

/**
 * A person's move is decided on the item as read before its transaction (in the item's queue, so
 * the walk cannot interleave); a move outside that queue (cancel, abandon, pause, a wall clock) may
 * have changed the item since. Checked inside the transaction, so the later move is refused as it
 * would be run after the other.
 */
async function unchanged(uow: UnitOfWork, rec: ItemRecord): Promise<void> {
  const cur = await getItem(uow.db, rec.id);
  if (!cur) throw new JigError('item_not_found', { id: rec.id });
  if (
    cur.status !== rec.status ||
    cur.stop_kind !== rec.stop_kind ||
    (cur.archived_at === null) !== (rec.archived_at === null)
  ) {
    throw new JigError(
      'move_refused',
      { reason: `the item is ${cur.status} now; it changed while this move was decided` },
      { status: cur.status },
    );
  }
}

/** Moves that only make sense for an item that has not ended. */
function refuseEnded(rec: ItemRecord): void {
  if (rec.status === 'completed' || rec.status === 'cancelled' || rec.status === 'abandoned') {
    throw new JigError('move_refused', { reason: `the item is ${rec.status}` }, { status: rec.status });
  }
}

/**
 * Runs work items through their frozen chains. All work for one item goes through one queue, so a
 * person's action and the walk never race on the same row; the row is the state (ADR 0003).
 */
export class Engine {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly sessions: SessionRunner;
  private readonly nodes: NodeRunner;
  private readonly agents: AgentRunner;
  private readonly escalations: Escalations;
  private readonly catalog: HarnessCatalog;
  private readonly parking: Parking;
  private readonly clocks: WallClocks;
  private closed = false;

  /** The injected clock's time, as stored. */
  private now(): string {
    return new Date(this.d.clock.now()).toISOString();
  }

  constructor(private readonly d: EngineDeps) {
    this.catalog = new HarnessCatalog(d.paths.configDir);
    this.sessions = new SessionRunner(d.store, d.events, d.paths, d.log, {
      provider: (id) => this.catalog.providers().providers[id],
      prices: () => this.catalog.prices(),
      onUsage: (s, final) => this.onUsage(s, final),
    });
    this.agents = new AgentRunner({
      store: d.store,
      events: d.events,
      config: d.config,
      catalog: this.catalog,
      skills: new SkillCatalog(d.paths.configDir),
      configDir: d.paths.configDir,
      sessions: this.sessions,
      log: d.log,
      env: (rec, repo) => this.envOf(rec, repo),
      dailySpent: () => this.dailySpent(),
    });
    this.parking = new Parking({
      store: d.store,
      clock: d.clock,
      events: d.events,
      log: d.log,
      item: (id) => this.item(id),
      policyOf: (rec) => this.policyOf(rec),
      serial: (id, fn) => this.serial(id, fn),
      claim: (uow, rec, by) => this.claim(uow, rec, by),
      kick: (id) => this.kick(id),
    });
    this.clocks = new WallClocks({
      store: d.store,
      clock: d.clock,
      events: d.events,
      log: d.log,
      policyOf: (rec) => this.policyOf(rec),
      endSessions: (id) => this.endSessions(id),
      promote: () => this.promote(),
    });
    this.clocks.start();
    this.escalations = new Escalations({
      store: d.store,
      events: d.events,
      repos: d.repos,
      log: d.log,
      agents: this.agents,
      sessions: this.sessions,
      item: (id) => this.item(id),
      policyOf: (rec) => this.policyOf(rec),
      retry: (id, by) => this.retry(id, by),
    });
    this.nodes = new NodeRunner({
      store: d.store,
      clock: d.clock,
      clockStop: (id) => this.clocks.stopIfCrossed(id),
      events: d.events,
      item: (id) => this.item(id),
      stillRunning: (id) => this.stillRunning(id),
      policy: (rec) => this.policyOf(rec),
      launch: (rec, node, task, argv, capS, brief) => {
        const repo = this.d.repos.find(rec.repo);
        if (!repo) throw new JigError('repo_not_connected', { path: rec.repo });
        return this.runArgv(rec, node, task.path, task.kind, argv, capS, repo, brief);
      },
      launchAgent: async (rec, node, task, capS, brief) => {
        const repo = this.d.repos.find(rec.repo);
        if (!repo) throw new JigError('repo_not_connected', { path: rec.repo });
        const out = await this.agents.run({
          rec,
          repo,
          chain: rec.chain_definition as ResolvedChain,
          policy: this.policyOf(rec),
          node,
          task,
          timeCapS: capS,
          ...(brief !== undefined ? { brief } : {}),
        });
        if (out.kind === 'session') return { session: out.session };
        return {
          refuse: { stop: out.stop, reason: out.reason, ...(out.session ? { session: out.session.id } : {}) },
        };
      },
    });
  }

  /** Spend of every item since local midnight (the daily cap's measure). */
  private async dailySpent(): Promise<number> {
    const midnight = new Date(this.d.clock.now());
    midnight.setHours(0, 0, 0, 0);
    return (await spentSince(this.db, midnight.toISOString())).usd;
  }

  /**
   * An agent's usage grew: the item's totals follow, and a running session that takes a scope past
   * its token or dollar cap is named so the runner ends it at once.
   */
  private async onUsage(s: SessionRecord, final: boolean): Promise<string | null> {
    const all = await sessionsOf(this.db, s.work_item_id);
    const usd = all.reduce((sum, x) => sum + (x.cost_usd ?? 0), 0);
    const tokens = all.reduce((sum, x) => sum + countedTokens(x), 0);
    await updateItem(this.db, s.work_item_id, {
      spent_usd: Math.round(usd * 1e6) / 1e6,
      spent_tokens: tokens,
    });
    if (final) return null;
    const rec = await getItem(this.db, s.work_item_id);
    if (!rec?.chain_definition) return null;
    const crossed = crossedCap({
      rec,
      chain: rec.chain_definition,
      policy: this.policyOf(rec),
      taskPath: s.task_path,
      sessions: all,
      dailySpent: await this.dailySpent(),
    });
    if (!crossed) return null;
    // Crossing, not reaching: a session is stopped only when it has gone past the cap.
    if (crossed.used <= crossed.limit) return null;
    return crossedReason(crossed);
  }

  /** The policy the item froze at its first start (the running one before that). */
  private policyOf(rec: ItemRecord): PolicyFile | null {
    return rec.policy_snapshot ?? this.d.config.policy;
  }

  private get db() {
    return this.d.store.db;
  }

  private async item(id: string): Promise<ItemRecord> {
    const rec = await getItem(this.db, id);
    if (!rec) throw new JigError('item_not_found', { id });
    return rec;
  }

  private serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return next;
  }

  /** Runs the walk of an item in the background; failures stop the item for a person, never crash. */
  private kick(id: string): void {
    if (this.closed) return;
    void this.serial(id, () => this.walk(id)).catch(async (err: unknown) => {
      this.d.log.error({ err, item: id }, 'walk failed');
      await this.serial(id, async () => {
        const rec = await getItem(this.db, id);
        if (rec?.status === 'running')
          await this.stop(rec, 'infra', `internal error: ${(err as Error).message}`, rec.current_node);
      });
    });
  }

  private maxConcurrent(): number {
    return this.d.config.policy?.max_concurrent ?? 3;
  }

  /** Moves an item to running if a slot is free, else queues it; answers the status set. */
  private async claim(uow: UnitOfWork, rec: ItemRecord, by: EventActor): Promise<'running' | 'queued'> {
    await unchanged(uow, rec);
    const running = await uow.db
      .selectFrom('work_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'running')
      .where('id', '!=', rec.id)
      .executeTakeFirstOrThrow();
    const free = Number(running.n) < this.maxConcurrent();
    const status = free ? 'running' : 'queued';
    const cur = await getItem(uow.db, rec.id);
    const w = cur?.walk ?? null;
    // The first start freezes the chain and starts the item's clock, queued or not: a wait for a
    // slot is a wait like any other.
    const frozen = w === null ? this.freeze(cur ?? rec) : null;
    await updateItem(uow.db, rec.id, {
      ...(w?.paused_at ? { walk: release(w, this.d.clock.now()) } : {}),
      ...(frozen ?? {}),
      status,
      queued_at: free ? null : this.now(),
      started_at: rec.started_at ?? (free ? this.now() : null),
      stop_kind: null,
      stop_reason: null,
      suggested_action: null,
      updated_at: this.now(),
    });
    if (!free) {
      await uow.emit({
        work_item_id: rec.id,
        type: 'work_item_queued',
        by,
        payload: { max_concurrent: this.maxConcurrent() },
      });
    }
    return status;
  }

  /** Starts queued items, oldest first, while slots are free. */
  /** Starts queued items in the background; a failure is logged (at shutdown the store is gone). */
  private promote(): void {
    this.promoteNow().catch((err: unknown) => {
      if (!this.closed) this.d.log.error({ err }, 'starting queued items failed');
    });
  }

  private async promoteNow(): Promise<void> {
    const started = await this.d.events.transact(async (uow) => {
      const running = await uow.db
        .selectFrom('work_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow();
      const free = this.maxConcurrent() - Number(running.n);
      if (free <= 0) return [];
      const queued = await uow.db
        .selectFrom('work_items')
        .select(['id', 'started_at'])
        .where('status', '=', 'queued')
        .orderBy('queued_at')
        .limit(free)
        .execute();
      for (const q of queued) {
        await updateItem(uow.db, q.id, {
          status: 'running',
          queued_at: null,
          started_at: q.started_at ?? this.now(),
          updated_at: this.now(),
        });
        await uow.emit({ work_item_id: q.id, type: 'work_item_dequeued', by: 'jig', payload: {} });
      }
      return queued.map((q) => q.id);
    });
    for (const id of started) this.kick(id);
  }

  // ---------- actions a person takes ----------

  /** Starts a paused item (first start or resume); the note becomes the next launch's steer. */
  resume(id: string, note: string | undefined, by: EventActor): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      if (rec.status === 'running' || rec.status === 'queued') return rec;
      if (rec.status !== 'paused') {
        throw new JigError(
          'move_refused',
          { reason: `the item is ${rec.status}; only a paused item can be resumed` },
          { status: rec.status },
        );
      }
      if (this.d.config.newWorkBlocked && rec.walk === null) {
        throw new JigError('new_work_refused', this.d.config.newWorkBlocked);
      }
      await this.d.events.transact(async (uow) => {
        if (note) await updateItem(uow.db, id, { steer: note });
        const status = await this.claim(uow, rec, by);
        await uow.emit({
          work_item_id: id,
          type: rec.walk === null ? 'work_item_started' : 'work_item_resumed',
          by,
          payload: { status, ...(note ? { note } : {}) },
        });
      });
      const after = await this.item(id);
      if (after.status === 'running') this.kick(id);
      return after;
    });
  }

  /**
   * Stops a running or queued item; its sessions end (SIGTERM, then SIGKILL after 10 s). Decided on
   * the row inside the transaction: pause runs beside the walk, not in the item's queue.
   */
  async pause(id: string, by: EventActor): Promise<ItemRecord> {
    const paused = await this.d.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec) throw new JigError('item_not_found', { id });
      if (rec.status === 'paused') return false;
      if (rec.status !== 'running' && rec.status !== 'queued') {
        throw new JigError(
          'move_refused',
          { reason: `the item is ${rec.status}; only a running or queued item can be paused` },
          { status: rec.status },
        );
      }
      // Marked paused first, so the walk sees it and stops; then the processes are ended.
      await updateItem(uow.db, id, {
        status: 'paused',
        queued_at: null,
        updated_at: this.now(),
        ...(rec.walk ? { walk: hold(rec.walk, this.d.clock.now()) } : {}),
      });
      await uow.emit({ work_item_id: id, type: 'work_item_paused', by, payload: { from: rec.status } });
      return true;
    });
    if (paused) {
      await this.endSessions(id);
      this.promote();
    }
    return this.item(id);
  }

  /** After an item ends by a person's move: its processes end and its slot goes to the next item. */
  async ended(id: string): Promise<void> {
    await this.endSessions(id);
    setImmediate(() => this.promote());
  }

  /** Ends every live session of an item; used by pause and by the moves that end an item. */
  async endSessions(id: string): Promise<void> {
    const live = await runningSessions(this.db, id);
    await Promise.all(live.map((s) => this.sessions.end(s)));
  }

  steer(id: string, note: string, by: EventActor): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      if (rec.status !== 'paused' && rec.status !== 'stopped') {
        throw new JigError(
          'move_refused',
          { reason: `the item is ${rec.status}; a steer is stored for a paused or stopped item` },
          { status: rec.status },
        );
      }
      await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
        await updateItem(uow.db, id, { steer: note, updated_at: this.now() });
        await uow.emit({ work_item_id: id, type: 'steer_context_set', by, payload: { note } });
      });
      return this.item(id);
    });
  }

  approve(id: string, gate: string, by: EventActor): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      const chain = rec.chain_definition;
      const walk = rec.walk;
      const idx = chain?.nodes.findIndex((n) => n.id === gate) ?? -1;
      if (!chain || !walk || idx < 0 || chain.nodes[idx]!.kind !== 'gate') {
        throw new JigError('not_found', { what: `gate ${gate} of this item's chain` });
      }
      // Idempotent: approving a gate already approved answers the item as it is.
      if (walk.approved.includes(gate) && walk.node > idx) return rec;
      if (!gateOpen(rec, gate)) {
        throw new JigError(
          'move_refused',
          { reason: `gate ${gate} is not waiting for a decision (the item is ${rec.status})` },
          { status: rec.status },
        );
      }
      const g = chain.nodes[idx] as {
        artifact?: string;
        artifact_required?: boolean;
        chain_finalized?: boolean;
      };
      if (g.artifact && (g.artifact_required || g.chain_finalized) && !this.artifactPath(rec, g.artifact)) {
        throw new JigError('artifact_required', { gate, kind: g.artifact });
      }
      await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
        await this.passGate(uow, rec, idx, by, {});
        await this.claim(uow, rec, by);
      });
      const after = await this.item(id);
      if (after.status === 'running') this.kick(id);
      return after;
    });
  }

  /** The walk moves past an approved gate; its auto-review count is spent with it. */
  private async passGate(
    uow: UnitOfWork,
    rec: ItemRecord,
    idx: number,
    by: EventActor,
    extra: { auto_review?: string },
  ): Promise<void> {
    const gate = (rec.chain_definition as ResolvedChain).nodes[idx]!.id;
    const walk = rec.walk!;
    const reviews = { ...walk.reviews };
    delete reviews[gate];
    const next: Walk = { ...atNode(walk, idx + 1), approved: [...walk.approved, gate], reviews };
    const after = (rec.chain_definition as ResolvedChain).nodes[idx + 1]?.id ?? null;
    await updateItem(uow.db, rec.id, { walk: next, current_node: after, updated_at: this.now() });
    await uow.emit({
      work_item_id: rec.id,
      type: 'gate_approved',
      by,
      node: gate,
      payload: { gate, ...extra },
    });
  }

  reject(id: string, gate: string, note: string, by: EventActor, node?: string): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      const chain = rec.chain_definition;
      const walk = rec.walk;
      const idx = chain?.nodes.findIndex((n) => n.id === gate) ?? -1;
      if (!chain || !walk || idx < 0 || chain.nodes[idx]!.kind !== 'gate') {
        throw new JigError('not_found', { what: `gate ${gate} of this item's chain` });
      }
      if (!gateOpen(rec, gate)) {
        throw new JigError(
          'move_refused',
          { reason: `gate ${gate} is not waiting for a decision (the item is ${rec.status})` },
          { status: rec.status },
        );
      }
      const target = rejectTarget(chain, idx, node);
      if (target === null) {
        throw new JigError('validation_failed', {
          reason: `body.node: ${node ?? 'reject_to'} is not an exec node before ${gate}`,
        });
      }
      const back = await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
        const moved = await this.rejectGate(uow, rec, idx, target, note, by, {});
        if (moved) await this.claim(uow, rec, by);
        return moved;
      });
      const after = await this.item(id);
      if (back && after.status === 'running') this.kick(id);
      return after;
    });
  }

  /**
   * Sends the walk back to `target` with the note as its steer, unless the gate's reject loop is
   * used up (then the item stays at the gate, saying so). Answers whether the walk moved.
   */
  private async rejectGate(
    uow: UnitOfWork,
    rec: ItemRecord,
    idx: number,
    target: number,
    note: string,
    by: EventActor,
    extra: { auto_review?: string },
  ): Promise<boolean> {
    const chain = rec.chain_definition as ResolvedChain;
    const gate = chain.nodes[idx]!.id;
    const walk = rec.walk!;
    const count = (walk.rejects[gate] ?? 0) + 1;
    const cap = this.policyOf(rec)?.default?.attempts ?? 3;
    const reviews = { ...walk.reviews };
    delete reviews[gate];
    if (count > cap) {
      await updateItem(uow.db, rec.id, {
        walk: { ...walk, rejects: { ...walk.rejects, [gate]: count } },
        stop_reason: `${gate} exhausted after ${cap} rejection(s)`,
        updated_at: this.now(),
      });
      await uow.emit({
        work_item_id: rec.id,
        type: 'gate_rejected',
        by,
        node: gate,
        payload: { gate, note, exhausted: true, ...extra },
      });
      return false;
    }
    const back = chain.nodes[target]!.id;
    await updateItem(uow.db, rec.id, {
      walk: { ...atNode(walk, target), rejects: { ...walk.rejects, [gate]: count }, reviews },
      steer: note,
      current_node: back,
      updated_at: this.now(),
    });
    await uow.emit({
      work_item_id: rec.id,
      type: 'gate_rejected',
      by,
      node: gate,
      payload: { gate, note, reject_to: back, count, ...extra },
    });
    return true;
  }

  /** The gate's reviewer runs first when it has one; its verdict moves the walk or waits for a person. */
  private async gate(rec: ItemRecord, chain: ResolvedChain, node: ModelNode): Promise<'moved' | 'done'> {
    const message = (node as { message?: string }).message ?? `approve or reject ${node.id}`;
    const policy = this.policyOf(rec);
    const task = autoReviewApplies(rec, node, policy);
    const repo = this.d.repos.find(rec.repo);
    if (!task || !repo) {
      await this.stop(rec, 'gate', message, node.id);
      return 'done';
    }
    await updateItem(this.db, rec.id, { current_node: node.id, updated_at: this.now() });
    const out = await runAutoReview({
      rec: await this.item(rec.id),
      repo,
      chain,
      policy,
      gate: node,
      task,
      events: this.d.events,
      db: this.db,
      agents: this.agents,
      stillRunning: () => this.stillRunning(rec.id),
    });
    const idx = chain.nodes.indexOf(node);
    const fresh = await this.item(rec.id);
    switch (out.kind) {
      case 'halt':
        return 'done';
      case 'again':
        return 'moved';
      case 'stop':
        await this.stop(fresh, out.stop, out.reason, node.id);
        return 'done';
      case 'person':
        await this.stop(fresh, 'gate', `${message} (${out.note})`, node.id);
        return 'done';
      case 'approve': {
        const g = node as { artifact?: string; artifact_required?: boolean; chain_finalized?: boolean };
        if (
          g.artifact &&
          (g.artifact_required || g.chain_finalized) &&
          !this.artifactPath(fresh, g.artifact)
        ) {
          await this.stop(
            fresh,
            'gate',
            `${message} (the auto review approved, but the ${g.artifact} document is missing)`,
            node.id,
          );
          return 'done';
        }
        await this.d.events.transact((uow) =>
          this.passGate(uow, fresh, idx, 'jig', { auto_review: out.session }),
        );
        return 'moved';
      }
      case 'reject': {
        const target = rejectTarget(chain, idx);
        if (target === null) {
          await this.stop(fresh, 'gate', `${message} (the auto review rejected: ${out.note})`, node.id);
          return 'done';
        }
        const moved = await this.d.events.transact((uow) =>
          this.rejectGate(uow, fresh, idx, target, out.note, 'jig', { auto_review: out.session }),
        );
        if (moved) return 'moved';
        await this.stop(
          await this.item(rec.id),
          'gate',
          (await this.item(rec.id)).stop_reason ?? message,
          node.id,
        );
        return 'done';
      }
    }
  }

  /**
   * Reruns the node the item stopped on (not a gate: a gate is approved or rejected), or an earlier
   * point given by `path` (`node`, `node.step`, `node.step.task`). A person's retry is a fresh entry:
   * recovery, fix-loop counters and escalation reset; the steer goes to the next agent launch.
   */
  retry(id: string, by: EventActor, opts: RetryOptions = {}): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      const plan = planRetry(rec, opts);
      await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
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
        await this.claim(uow, rec, by);
      });
      const after = await this.item(id);
      if (after.status === 'running') this.kick(id);
      return after;
    });
  }

  /** Advances past the current node or gate without running it. */
  skip(id: string, note: string | undefined, by: EventActor): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      const chain = rec.chain_definition;
      if ((rec.status !== 'stopped' && rec.status !== 'paused') || !rec.walk || !chain) {
        throw new JigError(
          'move_refused',
          { reason: `the item is ${rec.status}; only a stopped or paused item that has started can skip` },
          { status: rec.status },
        );
      }
      const node = chain.nodes[rec.walk.node];
      if (!node)
        throw new JigError(
          'move_refused',
          { reason: 'the item is past its last node' },
          { status: rec.status },
        );
      if ((node as { skippable?: boolean }).skippable === false) {
        throw new JigError(
          'move_refused',
          { reason: `node ${node.id} is not skippable` },
          { status: rec.status },
        );
      }
      await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
        await updateItem(uow.db, id, {
          walk: atNode(rec.walk!, rec.walk!.node + 1),
          updated_at: this.now(),
        });
        await uow.emit({
          work_item_id: id,
          type: 'node_skipped',
          by,
          node: node.id,
          payload: { node: node.id, ...(note ? { note } : {}) },
        });
        if (rec.status === 'stopped') await this.claim(uow, rec, by);
      });
      const after = await this.item(id);
      if (after.status === 'running') this.kick(id);
      return after;
    });
  }

  /** A worker reports that it started a task of the item's plan. */
  async progress(
    id: string,
    task: string,
    by: EventActor,
  ): Promise<{ work_item_id: string; task: string; seq: number }> {
    const rec = await this.item(id);
    refuseEnded(rec);
    const ev = await this.d.events.record(id, 'plan_progress', { task }, { by, node: rec.current_node });
    return { work_item_id: id, task, seq: ev.seq };
  }

  /**
   * Raises the item's own dollar cap above what it has spent; an item stopped on its budget runs again.
   */
  raiseBudget(id: string, capUsd: number, by: EventActor): Promise<ItemRecord> {
    return this.serial(id, async () => {
      const rec = await this.item(id);
      refuseEnded(rec);
      if (capUsd <= rec.spent_usd) {
        throw new JigError(
          'budget_not_raised',
          { cap_usd: capUsd, spent_usd: rec.spent_usd },
          { cap_usd: capUsd, spent_usd: rec.spent_usd },
        );
      }
      const retry = rec.status === 'stopped' && rec.stop_kind === 'budget' && rec.walk !== null;
      await this.d.events.transact(async (uow) => {
        await unchanged(uow, rec);
        await updateItem(uow.db, id, {
          budget_usd: capUsd,
          // Retried as `retry` does: the node reruns from a fresh entry.
          ...(retry ? { walk: atNode(rec.walk!, rec.walk!.node) } : {}),
          updated_at: this.now(),
        });
        await uow.emit({
          work_item_id: id,
          type: 'budget_raised',
          by,
          node: rec.current_node,
          payload: { from: rec.budget_usd, to: capUsd, spent_usd: rec.spent_usd, retried: retry },
        });
        if (retry) await this.claim(uow, rec, by);
      });
      const after = await this.item(id);
      if (retry && after.status === 'running') this.kick(id);
      return after;
    });
  }

  escalate(id: string, message: string, by: EventActor): Promise<{ session: string; harness: string }> {
    return this.escalations.escalate(id, message, by);
  }

  stopEscalation(id: string): Promise<{ stopped: string }> {
    return this.escalations.stop(id);
  }

  /** The document a gate decides on: a path a task reported (`artifact_ref`) for that kind. */
  artifactPath(rec: ItemRecord, kind: string): string | null {
    const rel = rec.walk?.artifacts?.[kind];
    if (!rel || !rec.worktree_path) return null;
    return documentReadable(rec.worktree_path, rel) ? join(rec.worktree_path, rel) : null;
  }

  async artifact(id: string): Promise<{ gate: string; kind: string; path: string; text: string }> {
    const rec = await this.item(id);
    const chain = rec.chain_definition;
    if (!chain || !rec.current_node || !gateOpen(rec, rec.current_node)) {
      throw new JigError('not_found', { what: 'a pending gate' });
    }
    const g = chain.nodes.find((n) => n.id === rec.current_node) as { artifact?: string } | undefined;
    const rel = g?.artifact ? rec.walk?.artifacts?.[g.artifact] : undefined;
    const doc = rel && rec.worktree_path ? readDocument(rec.worktree_path, rel) : null;
    if (!g?.artifact || !rel || !doc?.ok) {
      const why = doc && !doc.ok && doc.reason !== 'missing' ? ` (${rel} ${doc.detail})` : '';
      throw new JigError('not_found', { what: `the document of gate ${rec.current_node}${why}` });
    }
    const path = join(rec.worktree_path!, rel);
    return { gate: rec.current_node, kind: g.artifact, path, text: doc.bytes.toString('utf8') };
  }

  // ---------- the walk ----------

  private async stop(
    rec: ItemRecord,
    kind: StopKind,
    reason: string,
    node: string | null,
    session?: string | null,
  ): Promise<void> {
    const stopped = await this.d.events.transact(async (uow) => {
      const cur = await getItem(uow.db, rec.id);
      // Only the walk stops an item here, and only a running one: a move that got there first (a
      // pause, a wall clock) keeps its own stop.
      if (cur?.status !== 'running') return false;
      const w = cur.walk;
      await updateItem(uow.db, rec.id, {
        status: 'stopped',
        stop_kind: kind,
        stop_reason: reason,
        current_node: node,
        updated_at: this.now(),
        ...(w ? { walk: stoppedWalk(w, kind, this.d.clock.now()) } : {}),
      });
      const stop = { work_item_id: rec.id, by: 'jig' as const, node };
      await uow.emit(
        kind === 'gate'
          ? { ...stop, type: 'gate_requested', payload: { gate: node, message: reason } }
          : {
              ...stop,
              type: 'work_item_needs_human',
              payload: { kind, reason, ...(session ? { session } : {}) },
            },
      );
      return true;
    });
    if (!stopped) return;
    if (kind === 'rate_limit') await this.parking.park(rec.id);
    if (kind === 'stuck') setImmediate(() => void this.escalations.autoEscalate(rec.id));
    this.promote();
  }

  /** The chain and policy an item keeps from its first start on, and its walk at the first node. */
  private freeze(rec: ItemRecord): Pick<ItemRecord, 'chain_definition' | 'policy_snapshot' | 'walk'> | null {
    const chain = this.d.config.runningChains.get(rec.chain)?.resolved;
    if (!chain) return null;
    const walk = firstWalk(this.d.clock.now());
    return { chain_definition: chain, policy_snapshot: this.d.config.policy, walk: rec.walk ?? walk };
  }

  private async walk(id: string): Promise<void> {
    let rec = await this.item(id);
    if (rec.status !== 'running') return;
    if (rec.walk === null || rec.chain_definition === null) {
      const frozen = this.freeze(rec);
      if (!frozen) return this.stop(rec, 'config', `chain ${rec.chain} does not resolve now`, null);
      await updateItem(this.db, id, frozen);
      rec = await this.item(id);
    }
    const repo = this.d.repos.find(rec.repo);
    if (!repo) return this.stop(rec, 'config', `repo ${rec.repo} is no longer connected`, rec.current_node);
    if (!rec.worktree_path || !existsSync(rec.worktree_path)) {
      const prep = await prepareWorktree(repo, rec, this.d.paths.worktreesDir);
      if (!prep.ok) return this.stop(rec, prep.kind, prep.reason, null);
      await this.d.events.transact(async (uow) => {
        await updateItem(uow.db, id, {
          worktree_path: prep.path,
          base_ref: prep.baseRef,
          base_branch: prep.baseBranch,
        });
        await uow.emit({
          work_item_id: id,
          type: 'worktree_prepared',
          by: 'jig',
          payload: {
            path: prep.path,
            branch: rec.branch,
            base_branch: prep.baseBranch,
            base_ref: prep.baseRef,
            local_files: prep.copied,
            local_files_skipped: prep.skipped,
          },
        });
      });
      rec = await this.item(id);
      if (prep.created) {
        if (repo.setup_command === undefined) {
          return this.stop(
            rec,
            'config',
            `repo ${repo.path} has no setup_command; set it in repos.yaml ("" when nothing needs setting up)`,
            null,
          );
        }
        if (repo.setup_command !== '') {
          const out = await this.runArgv(
            rec,
            '<setup>',
            'setup',
            'setup',
            ['/bin/sh', '-c', repo.setup_command],
            null,
            repo,
          );
          if (!(await this.stillRunning(id))) return;
          if (!passed(out.status)) {
            return this.stop(
              rec,
              stopKindOf[out.status] ?? 'failed',
              `setup_command failed (${out.status}); see session ${out.id}`,
              null,
              out.id,
            );
          }
        }
      }
    }
    const chain = rec.chain_definition as ResolvedChain;
    for (;;) {
      rec = await this.item(id);
      if (rec.status !== 'running' || this.closed) return;
      const walk = rec.walk!;
      const node = chain.nodes[walk.node];
      if (!node) return this.complete(rec);
      if (node.kind === 'gate') {
        if ((await this.gate(rec, chain, node)) === 'done') return;
        continue;
      }
      if (walk.entry === undefined) {
        await this.d.events.transact(async (uow) => {
          await updateItem(uow.db, id, {
            walk: { ...walk, entry: 1, phase: 'node', node_clock: clockAt(walk, this.d.clock.now()) },
            current_node: node.id,
            updated_at: this.now(),
          });
          await uow.emit({
            work_item_id: id,
            type: 'node_started',
            by: 'jig',
            node: node.id,
            payload: { node: node.id, step: walk.step },
          });
        });
      } else if (rec.current_node !== node.id) {
        await updateItem(this.db, id, { current_node: node.id, updated_at: this.now() });
      }
      const out = await this.nodes.run(id, chain, node, repo);
      if (out.kind === 'halt') return;
      if (out.kind === 'moved') continue;
      if (out.kind === 'stop')
        return this.stop(await this.item(id), out.stop, out.reason, node.id, out.session);
      await this.d.events.transact(async (uow) => {
        const w = (await getItem(uow.db, id))!.walk!;
        await updateItem(uow.db, id, { walk: atNode(w, w.node + 1), updated_at: this.now() });
        await uow.emit({
          work_item_id: id,
          type: 'node_completed',
          by: 'jig',
          node: node.id,
          payload: { node: node.id, ...out.payload },
        });
      });
    }
  }

  private async stillRunning(id: string): Promise<boolean> {
    return !this.closed && (await getItem(this.db, id))?.status === 'running';
  }

  private async complete(rec: ItemRecord): Promise<void> {
    await this.d.events.transact(async (uow) => {
      // A person's move that ended the item meanwhile keeps its ending.
      if ((await getItem(uow.db, rec.id))?.status !== 'running') return;
      await updateItem(uow.db, rec.id, {
        status: 'completed',
        ended_at: this.now(),
        current_node: null,
        updated_at: this.now(),
      });
      await uow.emit({ work_item_id: rec.id, type: 'work_item_completed', by: 'jig', payload: {} });
    });
    this.promote();
  }

  private envOf(
    rec: ItemRecord,
    repo: NonNullable<ReturnType<ReposService['find']>>,
  ): Record<string, string> {
    return taskEnv(repo, {
      JIG_WORK_ITEM_ID: rec.id,
      JIG_DAEMON_PID: String(process.pid),
      JIG_DAEMON_PORT: String(this.d.port()),
    });
  }

  private async runArgv(
    rec: ItemRecord,
    node: string,
    taskPath: string,
    kind: string,
    argv: string[],
    timeCapS: number | null,
    repo: NonNullable<ReturnType<ReposService['find']>>,
    brief?: string,
  ): Promise<SessionRecord> {
    const env = this.envOf(rec, repo);
    const { session, launched } = await this.sessions.start({
      itemId: rec.id,
      node,
      taskPath,
      kind,
      argv,
      cwd: rec.worktree_path!,
      env,
      timeCapS,
      ...(brief !== undefined ? { brief } : {}),
    });
    return this.sessions.finish(session, launched);
  }

  // ---------- after a restart ----------

  /**
   * Adopts every session that is still running (same pid, same start time), resolves the ones that
   * ended meanwhile from their files, and continues every running item from its row.
   */
  async recover(): Promise<ReattachSummary> {
    const summary: ReattachSummary = {
      scanned: 0,
      adopted: 0,
      resolved_from_file: 0,
      unknown: 0,
      resumed_work_items: 0,
    };
    const live = await runningSessions(this.db);
    summary.scanned = live.length;
    const waits: Promise<unknown>[] = [];
    const itemsWithSessions = new Set<string>();
    for (const s of live) {
      itemsWithSessions.add(s.work_item_id);
      const alive = s.pid !== null && isSameProcess(s.pid, s.pid_start);
      await this.d.events.record(
        s.work_item_id,
        alive ? 'session_reattached' : 'session_resolved_after_restart',
        { session: s.id, pid: s.pid },
        { node: s.node },
      );
      if (alive) {
        summary.adopted++;
        waits.push(this.adopt(s));
      } else {
        const done = await this.sessions.record(s);
        if (done.status === 'unknown') summary.unknown++;
        else summary.resolved_from_file++;
        waits.push(this.serial(s.work_item_id, () => this.afterAdopted(done)));
      }
    }
    const running = await this.db
      .selectFrom('work_items')
      .select('id')
      .where('status', '=', 'running')
      .execute();
    for (const r of running) {
      summary.resumed_work_items++;
      if (!itemsWithSessions.has(r.id)) this.kick(r.id);
    }
    const parked = await this.db
      .selectFrom('work_items')
      .select('id')
      .where('status', '=', 'stopped')
      .where('stop_kind', '=', 'rate_limit')
      .execute();
    for (const p of parked) {
      const until = (await getItem(this.db, p.id))?.walk?.parked_until;
      if (until) this.parking.arm(p.id, until);
    }
    void Promise.all(waits).then(() => this.promote());
    return summary;
  }

  private adopt(s: SessionRecord): Promise<void> {
    return this.serial(s.work_item_id, async () => {
      const done = await this.sessions.finish(s);
      await this.afterAdopted(done);
    });
  }

  /** A session that ended while the server was away (or was adopted) decides how its step went. */
  private async afterAdopted(s: SessionRecord): Promise<void> {
    const rec = await getItem(this.db, s.work_item_id);
    if (!rec || rec.status !== 'running') return;
    const others = await runningSessions(this.db, rec.id);
    if (others.length > 0) return;
    if (s.node === '<setup>') {
      if (!passed(s.status)) {
        return this.stop(
          rec,
          stopKindOf[s.status] ?? 'failed',
          `setup_command ended ${s.status}; see session ${s.id}`,
          null,
          s.id,
        );
      }
      this.kick(rec.id);
      return;
    }
    // The walk takes the step's ended sessions from the database instead of launching them again.
    this.kick(rec.id);
  }

  close(): void {
    this.closed = true;
    this.sessions.close();
    this.parking.close();
    this.clocks.close();
  }
}
