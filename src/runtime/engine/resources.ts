import type { Logger } from 'pino';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { Store } from '../../store/database.js';
import { itemOr404, type ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import { KeyedQueues } from '../serial.js';
import type { ConfigState } from '../config/config-state.js';
import type { EventLog } from '../events/event-log.js';
import type { HarnessCatalog } from '../harness/catalog.js';
import type { HomePaths } from '../home/paths.js';
import type { ReposService } from '../repos/repos-service.js';
import type { Workers } from '../workers/workers.js';
import type { Claims } from './claims.js';
import type { EngineLife } from './engine-life.js';
import type { WalkFence } from './walk-fence.js';
import type { ProcessIdentity, ProcessRegistry } from './process-registry.js';

/** What the server hands the engine (the composition root builds each once: server/compose.ts). */
export interface EngineDeps {
  store: Store;
  events: EventLog;
  config: ConfigState;
  repos: ReposService;
  paths: HomePaths;
  log: Logger;
  clock: Clock;
  /** Review records the worktree as an attempt when an exec node's run ends (completed or stopped). */
  attempts?: { recordAttempt(rec: ItemRecord, node: string): Promise<void> };
  /** Why a person's approval of a gate is refused now (a must-fix review thread open), or null. */
  threads?: { mustFixRefusal(id: string): Promise<Error | null> };
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
  /**
   * A chain test's stubbed commands (ADR 0041): the argv that stands in for a command task's own,
   * or null to run it. Absent on every real server.
   */
  commandStub?: (taskPath: string) => string[] | null;
}

/**
 * What every system of the engine works with (ADR 0007): the server's services, the workers, the
 * item queues and whether the engine is closing. Values and services only: a system that asks
 * another for a move is handed that system when it is built (engine.ts builds them in dependency
 * order), and the one move asked against that order, a walk, goes through WalkRequests.
 */
export interface EngineResources extends EngineDeps {
  /** Runs work in an item's queue: a person's move and the walk never race on one row. */
  queues: ItemQueues;
  life: EngineLife;
  /** Whether the walk going on here may still write an item: every write of the walk asks it. */
  fence: WalkFence;
}

/** The policy the item froze at its first start (the running one before that). */
export const policyOf = (
  r: { config: { readonly policy: PolicyFile | null } },
  rec: ItemRecord,
): PolicyFile | null => rec.policy_snapshot ?? r.config.policy;

/** The item's row, or 404 work_item_not_found. */
export const itemOf = (r: Pick<EngineDeps, 'store'>, id: string): Promise<ItemRecord> =>
  itemOr404(r.store.db, id);

/**
 * One promise chain per item. Everything that changes an item's walk runs in its queue, so the row
 * read at the start of a move is the row the move writes over (ADR 0003).
 */
export class ItemQueues extends KeyedQueues {}
