import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import {
  claimable,
  claimFree,
  claimOf,
  claimsOf,
  claimsHeldBy,
  isSilent,
  liveTakers,
  setClaim,
  statusesOf,
  ownIdle,
} from '../../store/claims.js';
import type { Store } from '../../store/database.js';
import { releaseSessions } from '../../store/sessions.js';
import { runningCount } from '../../store/slots.js';
import { getItem } from '../../store/work-items.js';
import { background } from '../background.js';
import { stamp, type Clock } from '../clock.js';
import type { ProcessRegistry } from './process-registry.js';
import type { EventLog, UnitOfWork } from '../events/event-log.js';

/** How often a worker looks for items to claim and checks the ones it holds (a NOTIFY wakes it sooner). */
const POLL_MS = 1_000;

export interface ClaimsDeps {
  store: Store;
  events: EventLog;
  clock: Clock;
  log: Logger;
  /** This process among those sharing the store: its name, heartbeats and silence. */
  registry: ProcessRegistry;
}

/** What claims ask of the engine: start a walk here, and end this process's sessions of an item. */
export interface ClaimsHooks {
  walk(id: string): void;
  /**
   * `walkOnly`: the item stopped running but is still this process's: the walk's sessions end, and
   * an escalation turn (which runs on a stopped item by design) goes on.
   */
  endLocal(id: string, walkOnly: boolean): Promise<void>;
}

/**
 * Which process walks each running item. On SQLite one process owns the store and walks
 * everything: every claim is granted and nothing is written. On PostgreSQL any number of
 * processes share it: each claims running items (unclaimed, its own, or held by a process silent
 * for SILENCE_MS, process-registry.ts), heartbeats, and ends its sessions of an item whose claim moved on (the fence:
 * a generation bumped at every claim), so no node runs in two places at once.
 */
export class Claims {
  readonly name: string;
  private readonly shared: boolean;
  /** The items this process holds, with the generation it claimed them at. */
  private readonly held = new Map<string, number>();
  /**
   * Items that stopped running (paused, stopped) while a walk of theirs still ran here, with the
   * generation their claim had: that walk may still record how its step ended (a repair's refund)
   * until it ends, as long as the claim stays this process's. Dropped when the last walk ends.
   */
  private readonly stopped = new Map<string, number>();
  /** The items whose walk runs here now (how many walks of each: a second kick may queue one). */
  private readonly walking = new Map<string, number>();
  private hooks: ClaimsHooks | null = null;
  private stop: AbortController | null = null;

  /** Whether other processes may share the store (PostgreSQL): claims, heartbeats and fences apply. */
  get isShared(): boolean {
    return this.shared;
  }

  constructor(private readonly d: ClaimsDeps) {
    this.name = d.registry.name;
    this.shared = d.registry.shared;
  }

  private now(): string {
    return stamp(this.d.clock);
  }

  private silentSince(): string {
    return this.d.registry.silentSince();
  }

  /**
   * The claims this process held when it last ran (its predecessor's, after a succession), known
   * before recovery: what recovery settles for its items is written under their claims.
   */
  async register(): Promise<void> {
    await this.d.registry.register();
    if (!this.shared) return;
    for (const [id, generation] of await claimsHeldBy(this.d.store.db, this.name))
      this.held.set(id, generation);
  }

  /** Starts heartbeating and, on a shared store, claiming work. */
  async start(hooks: ClaimsHooks): Promise<void> {
    this.hooks = hooks;
    if (!this.shared) return;
    for (const [id, generation] of await claimsHeldBy(this.d.store.db, this.name))
      this.held.set(id, generation);
    this.stop = new AbortController();
    background(this.d.log, 'claiming work', () => this.loop(this.stop?.signal));
  }

  /** Stops claiming; the claims stay, so the same worker started again takes its items back. */
  halt(): void {
    this.stop?.abort();
    this.stop = null;
  }

  /** Stops claiming and records the stop (health shows it; the claims lapse after the silence). */
  async close(): Promise<void> {
    this.halt();
    await this.d.registry.stopped();
  }

  /**
   * Whether this process may walk the item now, claiming it when it is free (or its holder went
   * silent). A process that takes no work never walks: the item stays for a worker to claim.
   */
  async take(id: string): Promise<boolean> {
    if (!this.shared) return true;
    if (!this.d.registry.identity.takesWork) return false;
    return this.d.events.transact((uow) => this.takeIn(uow, id));
  }

  /** The claim itself, inside the caller's transaction. */
  private async takeIn(uow: UnitOfWork, id: string): Promise<boolean> {
    const rec = await getItem(uow.db, id);
    if (rec?.status !== 'running') return false;
    const claim = await claimOf(uow.db, id);
    if (claim?.worker === this.name) {
      this.hold(id, claim.generation);
      return true;
    }
    const slots = this.d.registry.identity.slots;
    if (slots !== null && this.walking.size >= slots) return false;
    const from = claim?.worker ?? null;
    if (from !== null && !(await isSilent(uow.db, from, this.silentSince()))) return false;
    const generation = await setClaim(uow.db, id, this.name, this.now());
    this.hold(id, generation);
    if (from !== null) {
      // Its sessions there are not waited for: they are listed as paused, and the node runs here.
      const note = `worker ${from} went silent; ${this.name} took the item over`;
      const sessions = await releaseSessions(uow.db, id, from, note, this.now());
      await uow.emit({
        work_item_id: id,
        type: 'work_item_reclaimed',
        by: 'jig',
        payload: { worker: this.name, from, generation, sessions },
      });
    }
    return true;
  }

  /**
   * A round's claims in a few statements: the rows came from `claimable` (running, locked), so the
   * free ones are taken in bulk; one held by a silent process goes through the takeover, item by item.
   */
  private async takeMany(uow: UnitOfWork, ids: readonly string[]): Promise<string[]> {
    const claims = await claimsOf(uow.db, ids);
    const fresh = ids.filter((id) => !claims.has(id));
    const released = new Map<string, number>();
    const taken: string[] = [];
    const silent: string[] = [];
    for (const [id, c] of claims) {
      if (c.worker === null) released.set(id, c.generation);
      else if (c.worker === this.name) {
        this.hold(id, c.generation);
        taken.push(id);
      } else silent.push(id);
    }
    for (const [id, g] of await claimFree(uow.db, fresh, released, this.name, this.now())) {
      this.hold(id, g);
      taken.push(id);
    }
    for (const id of silent) if (await this.takeIn(uow, id)) taken.push(id);
    return taken;
  }

  /** Whether this process still holds the item (its claim not moved on to another). */
  holds(id: string): Promise<boolean> {
    return this.heldIn(this.d.store.db, id);
  }

  /**
   * `holds`, read inside the caller's transaction: a walk that advances or ends an item writes only
   * while its claim is still this process's, so a takeover committed just before cannot be undone
   * by a walk that had not noticed it yet.
   */
  async heldIn(db: Parameters<typeof claimOf>[0], id: string): Promise<boolean> {
    if (!this.shared) return true;
    const mine = this.held.get(id) ?? this.stopped.get(id);
    if (mine === undefined) return false;
    const claim = await claimOf(db, id);
    return claim?.worker === this.name && claim.generation === mine;
  }

  /** A walk starts (true) or ends (false) here. */
  walked(id: string, running: boolean): void {
    const n = (this.walking.get(id) ?? 0) + (running ? 1 : -1);
    if (n > 0) this.walking.set(id, n);
    else {
      this.walking.delete(id);
      this.stopped.delete(id);
    }
  }

  /** The item is this process's at `generation` (claimed, or found claimed here). */
  private hold(id: string, generation: number): void {
    this.held.set(id, generation);
    this.stopped.delete(id);
  }

  private async loop(signal: AbortSignal | undefined): Promise<void> {
    while (signal && !signal.aborted) {
      try {
        await this.tick();
      } catch (err) {
        if (!signal.aborted) this.d.log.warn({ err }, 'a claims round failed');
      }
      try {
        await delay(POLL_MS, undefined, { signal, ref: false });
      } catch {
        return;
      }
    }
  }

  /** Wakes the loop now (a NOTIFY said work is waiting). */
  private async tick(): Promise<void> {
    await this.d.registry.beatIfDue();
    await this.fence();
    if (this.d.registry.identity.takesWork) await this.claimMore();
  }

  /**
   * The items whose claim moved on (another process took them while this one was silent) or that
   * stopped running: this process's sessions of them end here, and it no longer walks them.
   */
  private async fence(): Promise<void> {
    if (this.held.size === 0) return;
    const ids = [...this.held.keys()];
    const claims = await claimsOf(this.d.store.db, ids);
    const statuses = await statusesOf(this.d.store.db, ids);
    for (const [id, generation] of [...this.held]) {
      const claim = claims.get(id);
      const lost = claim?.worker !== this.name || claim.generation !== generation;
      if (lost || statuses.get(id) !== 'running') {
        // Taken again (at a new generation) when it runs again.
        this.held.delete(id);
        // A walk still going here may record how its step ended while the claim stays this
        // process's: on a pause that step ends now, often after this round looked.
        if (!lost && this.walking.has(id)) this.stopped.set(id, generation);
        else this.stopped.delete(id);
        if (lost)
          this.d.log.warn(
            { item: id, now: claim?.worker ?? null },
            'claim moved on: ending its sessions here',
          );
        // In the background: a stubborn process's grace must not hold up the next heartbeat.
        const hooks = this.hooks;
        if (hooks)
          background(this.d.log, 'ending sessions of an item no longer walked here', () =>
            hooks.endLocal(id, !lost),
          );
      }
    }
  }

  /** One round of claiming, answering what it took (the loop's step; benchmarks call it alone). */
  claimRound(): Promise<string[]> {
    return this.claimMore();
  }

  private async claimMore(): Promise<string[]> {
    // Claimed in the transaction that locked the rows (SKIP LOCKED): another worker's round skips
    // them. Each process takes its share of the running items (so two idle workers split a burst
    // rather than the first to look taking all), within its own --slots.
    const ids = await this.d.events.transact(async (uow) => {
      const since = this.silentSince();
      const share = Math.ceil((await runningCount(uow.db)) / Math.max(1, await liveTakers(uow.db, since)));
      const slots = this.d.registry.identity.slots ?? Number.POSITIVE_INFINITY;
      const walking = [...this.walking.keys()];
      // Its own items come back to it first, whatever its room (their worktrees are here): an item
      // stopped at a gate and approved waits for no slot of this process.
      const own = await ownIdle(uow.db, this.name, walking);
      const room = Math.min(slots, share) - this.walking.size - own.length;
      const more = room > 0 ? await claimable(uow.db, this.name, since, [...walking, ...own], room) : [];
      return this.takeMany(uow, [...own, ...more]);
    });
    for (const id of ids) this.hooks?.walk(id);
    return ids;
  }
}

/**
 * Thrown by a change of the walk once it is no longer the item's walk (another process took the
 * item over, or a person's move set it running anew while this walk's node ran): the walk here ends.
 */
export class WalkFenced extends Error {
  constructor(readonly id: string) {
    super(`work item ${id} is walked elsewhere now (taken over, or started anew); this walk ends`);
    this.name = 'WalkFenced';
  }
}
