import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { WorkerInfo } from '../../contract/health.js';
import {
  claimable,
  claimFree,
  claimOf,
  claimsOf,
  claimsHeldBy,
  heartbeat,
  isSilent,
  liveTakers,
  listWorkers,
  advertise,
  markLeading,
  markStopped,
  pruneWorkers,
  registerWorker,
  setClaim,
  statusesOf,
  succeed,
  ownIdle,
  workerNamed,
} from '../../store/claims.js';
import type { Store } from '../../store/database.js';
import { getSession, releaseSessions } from '../../store/sessions.js';
import { runningCount } from '../../store/slots.js';
import { getItem } from '../../store/work-items.js';
import { background } from '../background.js';
import type { Clock } from '../clock.js';
import type { EventLog, UnitOfWork } from '../events/event-log.js';

/** A process that has not said it is alive for this long loses its claims (docs/scale-out.md). */
export const SILENCE_MS = 60_000;
/** How often a process says it is alive: several times within the silence, so a slow beat is no death. */
const HEARTBEAT_MS = 5_000;
/** How often a worker looks for items to claim and checks the ones it holds (a NOTIFY wakes it sooner). */
const POLL_MS = 1_000;
/** A process silent this long is dropped from the list health shows. */
const FORGET_MS = 24 * 60 * 60_000;

/** Who this process is among the ones sharing the store. */
export interface ProcessIdentity {
  /** `--name`, `JIG_WORKER_NAME`, or host:pid. */
  name: string;
  role: 'serve' | 'worker';
  /** Whether it claims and walks items (`jig serve --no-work` does not). */
  takesWork: boolean;
  /** Most items it walks at once (the global max_concurrent still holds); null: no own limit. */
  slots: number | null;
}

export function defaultWorkerName(env: NodeJS.ProcessEnv): string {
  return env.JIG_WORKER_NAME?.trim() || `${hostname()}:${process.pid}`;
}

export interface ClaimsDeps {
  store: Store;
  events: EventLog;
  clock: Clock;
  log: Logger;
  identity: ProcessIdentity;
  /** JIG_HOME: the process that ran there before is this one's predecessor. */
  home: string;
}

/** What claims ask of the engine: start a walk here, and end this process's sessions of an item. */
export interface ClaimsHooks {
  walk(id: string): void;
  endLocal(id: string): Promise<void>;
}

/**
 * Which process walks each running item. On SQLite one process owns the store and walks
 * everything: every claim is granted and nothing is written. On PostgreSQL any number of
 * processes share it: each claims running items (unclaimed, its own, or held by a process silent
 * for SILENCE_MS), heartbeats, and ends its sessions of an item whose claim moved on (the fence:
 * a generation bumped at every claim), so no node runs in two places at once.
 */
export class Claims {
  readonly name: string;
  private readonly shared: boolean;
  /** The items this process holds, with the generation it claimed them at. */
  private readonly held = new Map<string, number>();
  /** The items whose walk runs here now (how many walks of each: a second kick may queue one). */
  private readonly walking = new Map<string, number>();
  private hooks: ClaimsHooks | null = null;
  private stop: AbortController | null = null;
  private lastBeat = 0;
  private startedAt: string;
  private leads = false;

  /** Whether other processes may share the store (PostgreSQL): claims, heartbeats and fences apply. */
  get isShared(): boolean {
    return this.shared;
  }

  constructor(private readonly d: ClaimsDeps) {
    this.name = d.identity.name;
    this.shared = d.store.kind === 'postgres';
    this.startedAt = new Date(d.clock.now()).toISOString();
  }

  private now(): string {
    return new Date(this.d.clock.now()).toISOString();
  }

  private silentSince(): string {
    return new Date(this.d.clock.now() - SILENCE_MS).toISOString();
  }

  /**
   * Records this process, succeeding the one that ran in its home before (its claims and running
   * sessions become this one's): before recovery, which adopts this process's sessions only.
   */
  async register(): Promise<void> {
    const at = this.now();
    this.startedAt = at;
    // On SQLite one process owns the store: nothing to record, nobody to succeed.
    if (!this.shared) return;
    const { identity } = this.d;
    const host = hostname();
    await this.d.events.transact(async (uow) => {
      const same = await workerNamed(uow.db, identity.name);
      if (
        same &&
        same.stopped_at === null &&
        same.heartbeat_at >= this.silentSince() &&
        (same.host !== host || same.home !== this.d.home)
      )
        throw new Error(
          `another live process is named ${identity.name} (on ${same.host}, home ${same.home}): ` +
            'give this one another --name (or JIG_WORKER_NAME)',
        );
      await registerWorker(uow.db, {
        name: identity.name,
        role: identity.role,
        host,
        home: this.d.home,
        pid: process.pid,
        takes_work: identity.takesWork ? 1 : 0,
        started_at: at,
        heartbeat_at: at,
        stopped_at: null,
      });
      await succeed(uow.db, identity.name, host, this.d.home, at);
    });
    await pruneWorkers(this.d.store.db, new Date(this.d.clock.now() - FORGET_MS).toISOString());
    this.lastBeat = this.d.clock.now();
    // Known before recovery: what it settles for this process's items is written under their claims.
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

  /** Where this process answers the others (server/forward.ts); nothing to say on SQLite. */
  async advertise(url: string, token: string): Promise<void> {
    if (this.shared) await advertise(this.d.store.db, this.name, url, token);
  }

  /**
   * Another live process that has an item's files: the one whose session it is (`session`), else
   * the one holding the item's claim. Null when that is this process, nobody, or a silent one.
   */
  async peerFor(id: string, session?: string): Promise<{ name: string; url: string; token: string } | null> {
    if (!this.shared) return null;
    const db = this.d.store.db;
    const name = session ? (await getSession(db, session))?.worker : (await claimOf(db, id))?.worker;
    if (!name || name === this.name) return null;
    const w = await workerNamed(db, name);
    if (!w?.url || !w.peer_token || w.stopped_at !== null || w.heartbeat_at < this.silentSince()) return null;
    // A loopback address names that machine only: from another, it would reach whatever listens here.
    if (w.host !== hostname() && isLoopbackUrl(w.url)) return null;
    return { name, url: w.url, token: w.peer_token };
  }

  /** Records that this process leads now, or no longer (health and the doctor show it). */
  async leading(on: boolean): Promise<void> {
    this.leads = on;
    if (this.shared) await markLeading(this.d.store.db, this.name, on);
  }

  /** Stops claiming and records the stop (health shows it; the claims lapse after the silence). */
  async close(): Promise<void> {
    this.halt();
    if (!this.shared) return;
    try {
      await markStopped(this.d.store.db, this.name, this.now());
    } catch (err) {
      this.d.log.warn({ err }, 'could not record this process as stopped');
    }
  }

  /**
   * Whether this process may walk the item now, claiming it when it is free (or its holder went
   * silent). A process that takes no work never walks: the item stays for a worker to claim.
   */
  async take(id: string): Promise<boolean> {
    if (!this.shared) return true;
    if (!this.d.identity.takesWork) return false;
    return this.d.events.transact((uow) => this.takeIn(uow, id));
  }

  /** The claim itself, inside the caller's transaction. */
  private async takeIn(uow: UnitOfWork, id: string): Promise<boolean> {
    const rec = await getItem(uow.db, id);
    if (rec?.status !== 'running') return false;
    const claim = await claimOf(uow.db, id);
    if (claim?.worker === this.name) {
      this.held.set(id, claim.generation);
      return true;
    }
    const slots = this.d.identity.slots;
    if (slots !== null && this.walking.size >= slots) return false;
    const from = claim?.worker ?? null;
    if (from !== null && !(await isSilent(uow.db, from, this.silentSince()))) return false;
    const generation = await setClaim(uow.db, id, this.name, this.now());
    this.held.set(id, generation);
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
        this.held.set(id, c.generation);
        taken.push(id);
      } else silent.push(id);
    }
    for (const [id, g] of await claimFree(uow.db, fresh, released, this.name, this.now())) {
      this.held.set(id, g);
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
    const mine = this.held.get(id);
    if (mine === undefined) return false;
    const claim = await claimOf(db, id);
    return claim?.worker === this.name && claim.generation === mine;
  }

  /** A walk starts (true) or ends (false) here. */
  walked(id: string, running: boolean): void {
    const n = (this.walking.get(id) ?? 0) + (running ? 1 : -1);
    if (n > 0) this.walking.set(id, n);
    else this.walking.delete(id);
  }

  /** The processes sharing the store, for health. */
  async workers(): Promise<WorkerInfo[]> {
    const since = this.silentSince();
    if (!this.shared)
      return [
        {
          name: this.name,
          role: this.d.identity.role,
          host: hostname(),
          pid: process.pid,
          takes_work: this.d.identity.takesWork,
          started_at: this.startedAt,
          heartbeat_at: this.now(),
          alive: true,
          self: true,
          leads: this.leads,
        },
      ];
    return (await listWorkers(this.d.store.db)).map((w) => ({
      name: w.name,
      role: w.role === 'worker' ? 'worker' : 'serve',
      host: w.host,
      pid: Number(w.pid),
      takes_work: Number(w.takes_work) === 1,
      started_at: w.started_at,
      heartbeat_at: w.heartbeat_at,
      alive: w.stopped_at === null && w.heartbeat_at >= since,
      self: w.name === this.name,
      leads: Number(w.leads) === 1 && w.stopped_at === null && w.heartbeat_at >= since,
    }));
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
    if (this.d.clock.now() - this.lastBeat >= HEARTBEAT_MS) {
      await heartbeat(this.d.store.db, this.name, this.now());
      this.lastBeat = this.d.clock.now();
    }
    await this.fence();
    if (this.d.identity.takesWork) await this.claimMore();
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
        if (lost)
          this.d.log.warn(
            { item: id, now: claim?.worker ?? null },
            'claim moved on: ending its sessions here',
          );
        // In the background: a stubborn process's grace must not hold up the next heartbeat.
        const hooks = this.hooks;
        if (hooks)
          background(this.d.log, 'ending sessions of an item no longer walked here', () =>
            hooks.endLocal(id),
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
      const slots = this.d.identity.slots ?? Number.POSITIVE_INFINITY;
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

/** Whether an advertised URL points at its own machine's loopback. */
function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return true;
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
