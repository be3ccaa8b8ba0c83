import type { Logger } from 'pino';
import type { AccessFile } from '../contract/config/access.js';
import type { Store } from '../store/database.js';
import type { ConfigState } from './config/config-state.js';
import type { HomePaths } from './home/paths.js';
import type { ReattachSummary } from '../contract/health.js';
import type { EventLog } from './events/event-log.js';
import type { SchedulePoller } from './intake/schedule-poller.js';
import type { AutoIntake } from './intake/auto-intake.js';
import type { ItemsService } from './items/items-service.js';
import type { ReposService } from './repos/repos-service.js';
import type { Engine } from './engine/engine.js';
import type { Clock } from './clock.js';
import type { ReviewService } from './review/review-service.js';
import type { DocumentsService } from './review/documents-service.js';
import type { ReviewsService } from './review/reviews-service.js';
import type { ThreadsService } from './review/threads-service.js';
import type { PermissionAsks } from './asks/permission-asks.js';
import type { PermissionGate } from './asks/permission-gate.js';
import type { MergeRequestsService } from './forge/merge-requests-service.js';
import type { Notifier } from './notify/notifier.js';
import type { NotifySettings } from './notify/notify-settings.js';
import type { StorageService } from './storage/storage-service.js';
import type { SearchService } from './search/search-service.js';
import type { AccessSettings } from './config/access-settings.js';
import type { AddonsService } from './addons/addons-service.js';

/** One running server's services and facts, handed to the routes. */
export interface Instance {
  paths: HomePaths;
  /** Version of the code running in this process. */
  version: string;
  startedAt: number;
  bind: string;
  /** The port actually listened on (known after listen; 0 before). */
  port: number;
  store: Store;
  config: ConfigState;
  access: AccessFile;
  log: Logger;
  /** True when a service manager (systemd, or JIG_SUPERVISED=1) restarts the server when it exits. */
  supervised: boolean;
  /** `serve` (API and board) or `worker` (`jig serve --worker`: claims and walks items, no board). */
  role: 'serve' | 'worker';
  /** A bearer the processes sharing the store present to this one, new at each start (server/forward.ts). */
  peerToken: string;
  /**
   * Set by the process owner (`jig serve`): stop cleanly and exit with this code, so the service
   * manager starts the server again. Unset when the server runs inside another program.
   */
  requestRestart?: (exitCode: number) => void;
  reattach: ReattachSummary;
  /** Config files a change cut short by a crash had written, put back at this start (config-journal.ts). */
  configRolledBack: string[];
  events: EventLog;
  items: ItemsService;
  repos: ReposService;
  /** The schedule poller (intake.yaml schedules and legacy policy.yaml triggers). */
  schedules: SchedulePoller;
  /** Auto-intake: polls the trackers and files what the rules let through (docs/intake.md). */
  intake: AutoIntake;
  notifySettings: NotifySettings;
  notifier: Notifier;
  storage: StorageService;
  search: SearchService;
  accessSettings: AccessSettings;
  /** Runs items through their chains (ADR 0003). */
  engine: Engine;
  /** Diffs, compares and viewed marks of an item's changes (issue 21). */
  review: ReviewService;
  /** An item's documents, read and opened in an editor. */
  documents: DocumentsService;
  /** Review threads on an item's changes. */
  threads: ThreadsService;
  /** Reviews: approve, request changes (the fix target reruns), comment. */
  reviews: ReviewsService;
  /** Workers' permission asks, answered by a person. */
  asks: PermissionAsks;
  /** Items' merge requests on their forges. */
  mergeRequests: MergeRequestsService;
  /** The permission gate Codex's and Cursor's pre-tool hooks ask. */
  gate: PermissionGate;
  /** Add-ons: collections, reviewed installs and updates (docs/addons.md). */
  addons: AddonsService;
  /** The clock services read (tests pass a ManualClock). */
  clock: Clock;
}
