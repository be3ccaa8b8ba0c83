import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { WorkerInfo } from '../../contract/health.js';
import {
  advertise,
  claimOf,
  heartbeat,
  listWorkers,
  markLeading,
  markStopped,
  pruneWorkers,
  registerWorker,
  succeed,
  workerNamed,
} from '../../store/claims.js';
import type { Store } from '../../store/database.js';
import { getSession } from '../../store/sessions.js';
import { stamp, type Clock } from '../clock.js';
import type { EventLog } from '../events/event-log.js';

/**
 * A process that has not said it is alive for this long loses its claims (docs/scale-out.md);
 * `--silence` (or JIG_WORKER_SILENCE) changes it, the same on every process sharing the store.
 */
export const SILENCE_MS = 60_000;
/** The shortest silence allowed: a few claim rounds (one a second) must fit in it. */
export const MIN_SILENCE_MS = 5_000;
/** How often a process says it is alive: several times within the silence, so a slow beat is no death. */
const heartbeatFor = (silenceMs: number): number => Math.min(5_000, Math.floor(silenceMs / 5));
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
  /** How long another process may be silent before its claims move (SILENCE_MS unless told). */
  silenceMs: number;
}

export function defaultWorkerName(env: NodeJS.ProcessEnv): string {
  return env.JIG_WORKER_NAME?.trim() || `${hostname()}:${process.pid}`;
}

export interface ProcessRegistryDeps {
  store: Store;
  events: EventLog;
  clock: Clock;
  log: Logger;
  identity: ProcessIdentity;
  /** JIG_HOME: the process that ran there before is this one's predecessor. */
  home: string;
}

/**
 * This process among those sharing a store: its row (who, where, since when), its heartbeats, the
 * address the others forward requests to, whether it leads, and the list health shows. On SQLite
 * one process owns the store: nothing is written, and the list is this process alone. Which items
 * each process walks is claims.ts.
 */
export class ProcessRegistry {
  readonly name: string;
  readonly shared: boolean;
  private lastBeat = 0;
  private startedAt: string;
  private host: string | null = null;
  private leads = false;

  constructor(private readonly d: ProcessRegistryDeps) {
    this.name = d.identity.name;
    this.shared = d.store.kind === 'postgres';
    this.startedAt = stamp(d.clock);
  }

  get identity(): ProcessIdentity {
    return this.d.identity;
  }

  /** Heartbeats older than this are silence. */
  silentSince(): string {
    return new Date(this.d.clock.now() - this.d.identity.silenceMs).toISOString();
  }

  /**
   * Records this process, succeeding the one that ran in its home before (its claims and running
   * sessions become this one's): before recovery, which adopts this process's sessions only.
   */
  async register(): Promise<void> {
    const at = stamp(this.d.clock);
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
  }

  /** Says this process is alive when a beat is due (each round of claims.ts asks). */
  async beatIfDue(): Promise<void> {
    if (!this.shared || this.d.clock.now() - this.lastBeat < heartbeatFor(this.d.identity.silenceMs)) return;
    await heartbeat(this.d.store.db, this.name, stamp(this.d.clock));
    this.lastBeat = this.d.clock.now();
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

  /** Records the stop (health shows it; the claims lapse after the silence). */
  async stopped(): Promise<void> {
    if (!this.shared) return;
    try {
      await markStopped(this.d.store.db, this.name, stamp(this.d.clock));
    } catch (err) {
      this.d.log.warn({ err }, 'could not record this process as stopped');
    }
  }

  /** The processes sharing the store, for health. */
  async workers(): Promise<WorkerInfo[]> {
    const since = this.silentSince();
    if (!this.shared)
      return [
        {
          name: this.name,
          role: this.d.identity.role,
          // Read once: health answers it at every probe, and a host is not renamed under a process.
          host: (this.host ??= hostname()),
          pid: process.pid,
          takes_work: this.d.identity.takesWork,
          started_at: this.startedAt,
          heartbeat_at: stamp(this.d.clock),
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
