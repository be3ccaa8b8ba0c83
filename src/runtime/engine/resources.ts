import type { Logger } from 'pino';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { EventActor } from '../../contract/events.js';
import type { StopKind } from '../../contract/item-status.js';
import type { Store } from '../../store/database.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import type { EventLog, UnitOfWork } from '../events/event-log.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import type { HomePaths } from '../home/paths.js';
import type { ReposService } from '../repos/repos-service.js';
import type { Workers } from '../workers/workers.js';
import type { Claims } from './claims.js';
import type { ProcessIdentity, ProcessRegistry } from './process-registry.js';

/** What the server hands the engine (the composition root builds each once: server/compose.ts). */
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
  /**
   * Called when an exec node's run ends (completed or stopped): review records the worktree as
   * that attempt. It never fails the walk.
   */
  onNodeRunEnd?: (rec: ItemRecord, node: string) => Promise<void>;
  /** Why a person's approval of a gate is refused now (a must-fix review thread open), or null. */
  approvalRefusal?: (id: string) => Promise<Error | null>;
  /** Who this process is among those sharing the store (docs/scale-out.md). */
  identity: ProcessIdentity;
  /** The agent CLIs Jig knows and their prices. */
  catalog: HarnessCatalog;
  /** The processes the engine launches, watches and adopts. */
  workers: Workers;
  /** Which process walks each running item. */
  claims: Claims;
  /** This process among those sharing the store (its heartbeats, address and lead). */
  registry: ProcessRegistry;
}

/**
 * What every system of the engine works with (ADR 0007): the server's services, the workers, and
 * the few moves one system asks of another. The moves are named here, not reached through the
 * systems themselves, so a system depends on what it asks for and the facade alone wires them.
 */
export interface EngineResources extends EngineDeps {
  /** True once the server is closing: nothing new starts. */
  closed(): boolean;
  /** The clock's time as stored. */
  now(): string;
  item(id: string): Promise<ItemRecord>;
  /** The policy the item froze at its first start (the running one before that). */
  policyOf(rec: ItemRecord): PolicyFile | null;
  /** The item is still running and the server is not closing: the walk may go on. */
  stillRunning(id: string): Promise<boolean>;
  /** Runs `fn` in the item's queue: a person's move and the walk never race on one row. */
  serial<T>(id: string, fn: () => Promise<T>): Promise<T>;
  /** Slots: moves the item to running when a slot is free, else queues it (slots.ts). */
  claim(uow: UnitOfWork, rec: ItemRecord, by: EventActor): Promise<'running' | 'queued'>;
  /** Slots: starts queued items while slots are free, in the background. */
  promote(): void;
  /** Walker: runs the item's walk in its queue, in the background. */
  kick(id: string): void;
  /** Walker: the walk stops a running item for a person (or a gate, or a reset). */
  stop(
    rec: ItemRecord,
    kind: StopKind,
    reason: string,
    node: string | null,
    session?: string | null,
  ): Promise<void>;
  /** Workers: ends every live session of the item, `cancelled` when the item's move ends it for good. */
  endSessions(id: string, why?: 'paused' | 'cancelled'): Promise<void>;
  /** Person moves: reruns the node the item stopped on (an escalation that asks for it). */
  retry(id: string, by: EventActor): Promise<ItemRecord>;
}

/**
 * One promise chain per item. Everything that changes an item's walk runs in its queue, so the row
 * read at the start of a move is the row the move writes over (ADR 0003).
 */
export class ItemQueues {
  private readonly queues = new Map<string, Promise<void>>();

  serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
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
}

export { itemOr404 } from '../../store/work-items.js';
