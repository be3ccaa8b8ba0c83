import type { EventActor } from '../../contract/events.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import type { ReattachSummary, WorkerInfo } from '../../contract/health.js';
import type { Claims } from './claims.js';
import { toolPolicies, type ToolPolicy } from '../../core/policy/ratchet.js';
import type { ItemRecord } from '../../store/work-items.js';
import { Blocking, type Unblocked } from './blocking.js';
import { Escalations, type EscalationStarted } from './escalation.js';
import { Gates, type DecisionOptions } from './gates.js';
import { Parking } from './parking.js';
import { PersonMoves } from './person-moves.js';
import { recover } from './recovery.js';
import { ItemQueues, policyOf, type EngineDeps, type EngineResources } from './resources.js';
import { EngineLife } from './engine-life.js';
import { SessionEnds } from './session-ends.js';
import { WalkFence } from './walk-fence.js';
import { WalkRequests } from './walk-requests.js';
import type { RetryOptions } from './retry-plan.js';
import { Slots } from './slots.js';
import { Walker } from './walker.js';
import { WallClocks } from './wall-clock.js';
import { Waits } from './waits.js';
import { MrWatch } from './mr-watch.js';

export type { EngineDeps } from './resources.js';

/**
 * Runs work items through their frozen chains: the facade over the engine's systems (ADR 0007).
 * Slots decide who runs; the walker walks; gates and person moves are what people do; parking,
 * the wall clocks and escalations act on their own; recovery continues after a restart. They share
 * one resources object, and all work on one item goes through its queue, so a person's move and
 * the walk never race on the same row (ADR 0003).
 */
export class Engine {
  private readonly r: EngineResources;
  private readonly slots: Slots;
  private readonly walker: Walker;
  private readonly gates: Gates;
  private readonly moves: PersonMoves;
  private readonly parking: Parking;
  private readonly clocks: WallClocks;
  private readonly escalations: Escalations;
  private readonly waits: Waits;
  private readonly sessions: SessionEnds;
  private readonly mrWatch: MrWatch;
  private readonly claims: Claims;
  private readonly blocking: Blocking;

  /**
   * Builds the systems in dependency order, each handed the systems it calls (the graph is in
   * docs/architecture.md). The one move asked against that order, a walk, goes through
   * WalkRequests, which the walker, built last, answers.
   */
  constructor(d: EngineDeps) {
    this.claims = d.claims;
    const life = new EngineLife();
    const r: EngineResources = {
      ...d,
      queues: new ItemQueues(),
      life,
      fence: new WalkFence({ store: d.store, claims: d.claims, life }),
    };
    this.r = r;
    const walks = new WalkRequests();
    this.slots = new Slots(r, walks);
    this.gates = new Gates(r, this.slots, walks);
    this.waits = new Waits(r, this.slots, walks);
    // A wait has no process: its session ends with the item's move too.
    this.sessions = new SessionEnds(d.workers, this.waits);
    this.blocking = new Blocking(r, this.slots, walks);
    this.moves = new PersonMoves(r, this.slots, walks, this.sessions, this.blocking);
    this.parking = new Parking(r, this.slots, walks);
    this.clocks = new WallClocks(r, this.slots, this.sessions);
    this.escalations = new Escalations(r, this.moves);
    this.mrWatch = new MrWatch(r, this.slots, this.sessions);
    this.walker = new Walker(
      r,
      {
        slots: this.slots,
        gates: this.gates,
        parking: this.parking,
        escalations: this.escalations,
        clocks: this.clocks,
        waits: this.waits,
        blocking: this.blocking,
      },
      walks,
    );
  }

  /**
   * The leader's part of the engine (store/leader.ts): the wall clocks, the merge-request watch and
   * the forge waits' polls run in one process. A stop they make reaches a worker's sessions through
   * its fence (claims.ts). Called with false when leadership moves on, and at close.
   */
  async lead(leading: boolean): Promise<void> {
    if (!leading) {
      this.clocks.close();
      this.mrWatch.close();
      this.waits.follow();
      await this.r.registry
        .leading(false)
        .catch((err: unknown) => this.r.log.warn({ err }, 'could not record the lead given up'));
      return;
    }
    if (this.r.life.closed) return;
    this.clocks.start();
    this.mrWatch.start();
    await this.waits.lead();
    // A completion whose dependents were not looked at (a crash between the two) is made good here.
    await this.blocking
      .sweep()
      .catch((err: unknown) => this.r.log.error({ err }, 'looking at blocked items failed'));
    await this.r.registry.leading(true);
  }

  // ---------- a person's moves ----------

  /** Drops one dependency of the item (or all); a blocked item with nothing left to wait on starts. */
  unblock(id: string, dependency: string | undefined, by: EventActor): Promise<Unblocked> {
    return this.blocking.unblock(id, dependency, by);
  }

  /** After an item ended by a person's move or the walk: its blocked dependents are looked at. */
  dependencyEnded(id: string): Promise<void> {
    return this.blocking.ended(id);
  }

  /** After a person changed what a blocked item comes after: it may start, or need them. */
  dependenciesChanged(id: string): Promise<void> {
    return this.blocking.changed(id);
  }

  resume(
    id: string,
    note: string | undefined,
    by: EventActor,
    steers?: Readonly<Record<string, string>>,
  ): Promise<ItemRecord> {
    return this.moves.resume(id, note, by, steers);
  }

  pause(id: string, by: EventActor): Promise<ItemRecord> {
    return this.moves.pause(id, by);
  }

  steer(id: string, note: string, by: EventActor): Promise<ItemRecord> {
    return this.moves.steer(id, note, by);
  }

  retry(id: string, by: EventActor, opts: RetryOptions = {}): Promise<ItemRecord> {
    return this.moves.retry(id, by, opts);
  }

  skip(id: string, note: string | undefined, by: EventActor, path?: string): Promise<ItemRecord> {
    return this.moves.skip(id, note, by, path);
  }

  progress(
    id: string,
    task: string,
    by: EventActor,
  ): Promise<{ work_item_id: string; task: string; seq: number }> {
    return this.moves.progress(id, task, by);
  }

  raiseBudget(id: string, capUsd: number, by: EventActor): Promise<ItemRecord> {
    return this.moves.raiseBudget(id, capUsd, by);
  }

  /**
   * `request`: the gate request the person saw (else the one open on arrival); `digest`: approve
   * only when the gate's document still has it (a person approves what they read).
   */
  approve(id: string, gate: string, by: EventActor, opts: DecisionOptions = {}): Promise<ItemRecord> {
    return this.gates.approve(id, gate, by, opts);
  }

  reject(
    id: string,
    gate: string,
    note: string,
    by: EventActor,
    opts: DecisionOptions & { node?: string | undefined } = {},
  ): Promise<ItemRecord> {
    return this.gates.reject(id, gate, note, by, opts);
  }

  artifact(id: string): Promise<{ gate: string; kind: string; path: string; text: string; digest: string }> {
    return this.gates.artifact(id);
  }

  escalate(id: string, message: string, by: EventActor, newThread = false): Promise<EscalationStarted> {
    return this.escalations.escalate(id, message, by, newThread);
  }

  stopEscalation(id: string): Promise<{ stopped: string }> {
    return this.escalations.stop(id);
  }

  /**
   * What a launch of this task was given to enforce: its tool policy (null when the task is not in
   * the item's frozen chain) and the providers' definitions (their hook tool names).
   */
  launchPolicy(
    rec: ItemRecord,
    task: string,
  ): { tools: ToolPolicy | null; providers: Record<string, ProviderDefinition> } {
    const repo = this.r.repos.find(rec.repo);
    const tools =
      rec.chain_definition === null
        ? undefined
        : toolPolicies(rec.chain_definition, policyOf(this.r, rec), repo?.policy).get(task);
    return { tools: tools ?? null, providers: this.r.catalog.providers().providers };
  }

  /** After an item ends by a person's move (cancel, abandon): its processes end and its slot goes on. */
  async ended(id: string): Promise<void> {
    // Cancelled, not paused: the item is over and nothing resumes these sessions.
    await this.sessions.end(id, 'cancelled');
    setImmediate(() => this.slots.promote());
  }

  /** Ends every live session of an item. */
  endSessions(id: string): Promise<void> {
    return this.sessions.end(id);
  }

  // ---------- the server's life ----------

  /**
   * After a restart: adopts this process's sessions and continues its items, then starts
   * heartbeating and (on a shared store) claiming work.
   */
  async recover(): Promise<ReattachSummary> {
    await this.claims.register();
    const summary = await recover(this.r, { parking: this.parking, slots: this.slots, walker: this.walker });
    await this.claims.start({
      walk: (id) => this.walker.kick(id),
      endLocal: (id, walkOnly) => this.r.workers.endLocal(id, 'paused', walkOnly),
    });
    return summary;
  }

  /** Records this process as stopped (before the store closes; its claims lapse in their time). */
  retire(): Promise<void> {
    return this.claims.close();
  }

  /** This process's name among those sharing the store. */
  get workerName(): string {
    return this.claims.name;
  }

  /** Where this process answers the others sharing the store (server/forward.ts). */
  advertise(url: string, token: string): Promise<void> {
    return this.r.registry.advertise(url, token);
  }

  /** The live process that has an item's (or one session's) files, when another (server/forward.ts). */
  peerFor(id: string, session?: string): Promise<{ name: string; url: string; token: string } | null> {
    return this.r.registry.peerFor(id, session);
  }

  /** The processes sharing the store, for health. */
  workers(): Promise<WorkerInfo[]> {
    return this.r.registry.workers();
  }

  /**
   * After close(): waits (at most `maxMs`) for the walks in flight to return, so none writes to the
   * store or starts git after the server stopped. False when one did not return in time.
   */
  settled(maxMs = 10_000): Promise<boolean> {
    return this.r.life.settled(maxMs);
  }

  close(): void {
    this.r.life.close();
    this.claims.halt();
    this.r.workers.close();
    this.parking.close();
    this.waits.close();
    this.mrWatch.close();
    this.clocks.close();
  }
}
