import type { Generated } from 'kysely';
import type { StopKind } from '../contract/item-status.js';

/** Tables as Kysely sees them; each migration that adds a table adds its interface here. */
export interface JigMetaTable {
  key: string;
  value: string;
}

export interface SchemaVersionTable {
  version: number;
  applied_at: string;
  id: Generated<number>;
}

/** Browser logins (migration 2). The cookie's value is never stored, only its SHA-256. */
export interface AuthSessionsTable {
  token_hash: string;
  /** Ties the session to the password it was made with: a new password ends every older session. */
  password_tag: string;
  peer: string;
  /**
   * ISO 8601 UTC (`toISOString()`); compared as text on SQLite, which orders correctly for this
   * fixed-width form, and a timestamptz on PostgreSQL read back as the same string (migration 32).
   */
  created_at: string;
  expires_at: string;
}

/**
 * Work items (migration 3). JSON columns hold objects as text (jsonb on PostgreSQL, read back as
 * text); the store parses them. Closed sets and the rows that name an item are held by the
 * database too (migration 33).
 */
export interface WorkItemsTable {
  id: string;
  title: string;
  description: string;
  status: string;
  chain: string;
  repo: string;
  branch: string;
  base_branch: string | null;
  base_ref: string | null;
  source: string;
  attachments: string;
  agent_overrides: string;
  node_overrides: string;
  policy_override: string;
  budget_usd: number | null;
  spent_usd: number;
  chain_definition: string | null;
  policy_snapshot: string | null;
  current_node: string | null;
  /** A stop kind (contract/item-status.ts); a value another release wrote is read as `infra`. */
  stop_kind: StopKind | null;
  stop_reason: string | null;
  suggested_action: string | null;
  worktree_path: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
  archived_at: string | null;
  /** Engine (migration 5): where the walk is (JSON), a note for the next launch, when it queued. */
  walk: string | null;
  steer: string | null;
  queued_at: string | null;
  /** Migration 7: tokens (input + output, cache included) over all the item's sessions. */
  spent_tokens: number;
  /** Migration 12: node ids the item passes without running, as a JSON array. */
  skip_nodes: string;
  /** Migration 13: 1 or 0 as filed; null: as the item's source has it. */
  auto_gate: number | null;
  /** Migration 19: the workspace and members an item is filed on (ItemWorkspace as JSON), or null. */
  workspace: string | null;
  /** Migration 28: bumped at every set-running; a walk writes only under the epoch it started in. */
  run_epoch: number;
  /** Migration 28: the seq of the `gate_requested` the item waits on, or null. */
  gate_request: number | null;
}

/** Task processes the engine launched (migration 5). */
export interface WorkerSessionsTable {
  id: string;
  work_item_id: string;
  node: string;
  task_path: string;
  kind: string;
  status: string;
  argv: string;
  cwd: string;
  pid: number | null;
  pid_start: string | null;
  log_path: string;
  result_path: string;
  exit_path: string;
  exit_code: number | null;
  result: string | null;
  time_cap_s: number | null;
  started_at: string;
  exited_at: string | null;
  /** Agent sessions (migration 7): the launch, the CLI's session id, live usage, the stream's end. */
  harness: string | null;
  provider: string | null;
  model: string | null;
  cli_session_id: string | null;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  cost_usd: number | null;
  /** `reported` by the CLI, `estimated` from the price table, null when unknown. */
  cost_source: string | null;
  readout: string | null;
  note: string | null;
  /** Migration 19: the workspace member a fanned-out (`each_repository`) session ran for. */
  member: string | null;
  /** Migration 25: the process (`jig serve` or a worker) that ran it; null before scale-out. */
  worker: string | null;
}

/** Migration 25: every process that walks items (or serves), and when it last said it was alive. */
/** An item's attached spec or plan text (migration 27), as stored in run/attachments too. */
export interface ItemAttachmentsTable {
  work_item_id: string;
  kind: string;
  text: string;
}

/** Migration 30: an item comes after another (issue 46). */
export interface WorkItemDependenciesTable {
  item_id: string;
  dependency_id: string;
  /** The order the dependencies were named in. */
  position: number;
  created_at: string;
}

/** A note for the next launch of one task (a resume's `steers`), taken by that launch. */
export interface WorkItemTaskSteersTable {
  item_id: string;
  task_path: string;
  note: string;
  created_at: string;
}

export interface WorkersTable {
  name: string;
  /** `serve` (API and board) or `worker` (`jig serve --worker`). */
  role: string;
  host: string;
  /** Its JIG_HOME: one process per home at a time (the pid lock), so a new one there succeeds the last. */
  home: string;
  pid: number;
  /** 1 when it claims and walks items, 0 for a `jig serve --no-work`. */
  takes_work: number;
  started_at: string;
  heartbeat_at: string;
  stopped_at: string | null;
  /** 1 for the `jig serve` that leads now (store/leader.ts). */
  leads: Generated<number>;
  /** Where it answers other processes (server/forward.ts); null until it listens. */
  url: string | null;
  /** The bearer other processes present to it, valid while this process runs. */
  peer_token: string | null;
}

/** Migration 25: which process walks each item; `generation` grows with every claim (the fence). */
export interface ItemClaimsTable {
  work_item_id: string;
  worker: string | null;
  generation: number;
  claimed_at: string;
}

/** The append-only event log (migration 3). */
export interface EventsTable {
  seq: Generated<number>;
  work_item_id: string;
  type: string;
  by: string;
  node: string | null;
  payload: string;
  at: string;
}

/** The last minute each schedule entry fired (migration 4). */
export interface ScheduleFiringsTable {
  entry_key: string;
  /** Whole minutes since the Unix epoch, UTC. */
  minute: number;
  fired_at: string;
}

/** `Idempotency-Key`s of `POST /api/triggers` (migration 8). */
export interface TriggerKeysTable {
  key: string;
  request_sha256: string;
  work_item_id: string;
  created_at: string;
}

/** Open configuration drafts (migration 9); `files` and `base` are JSON maps by file name. */
export interface DraftsTable {
  area: string;
  key: string;
  files: string;
  base: string;
  /** JSON: file → what its draft text last parsed to (shown while the text does not parse). */
  last_parsed: string;
  /**
   * Always `[]`: once the files an op wrote back whole, comments dropped. Ops write over a file's
   * own text since issue 48, so nothing reads it; the column stays to spare a migration.
   */
  rewritten: string;
  changes: number;
  problems: number;
  updated_at: string;
}

/** A draft's undo steps (migration 9): `before` is the draft before the step, JSON, or null for none. */
export interface DraftStepsTable {
  area: string;
  key: string;
  seq: number;
  kind: string;
  file: string | null;
  before: string | null;
  touched_at: string;
}

/** A work item's own chain draft (migration 11): `ops` is the op list as JSON. */
export interface ItemDraftsTable {
  work_item_id: string;
  ops: string;
  base_seq: number;
  updated_at: string;
}

/** Auto-intake polls (migration 10); `started` and `skipped` are JSON lists. */
export interface IntakeChecksTable {
  id: Generated<number>;
  at: string;
  ready: number;
  started: string;
  skipped: string;
}

/** Tracker issues items implement (migration 20). */
export interface ItemIssuesTable {
  work_item_id: string;
  tracker: string;
  issue_id: string;
  /** Its place among the item's issues, as linked. */
  position: number;
  priority: number | null;
  how: string;
  closing: Generated<string>;
  /** The issue's web page (migration 21); null for a bead. */
  url: string | null;
}

/** The search index's entries (migration 22); `search_fts` is FTS5 over their title and body. */
export interface SearchEntriesTable {
  id: Generated<number>;
  kind: string;
  ref: string;
  work_item_id: string | null;
  repo: string | null;
  title: string;
  body: string;
  updated_at: string;
}

/** Review (migration 14): the commit each node run ended at, and viewed marks per person. */
export interface ItemAttemptsTable {
  item_id: string;
  n: number;
  node: string;
  run: number;
  sha: string;
  at: string;
}

export interface ReviewViewedTable {
  item_id: string;
  person: string;
  path: string;
  blob: string;
  at: string;
}

/** Review threads, comments and reviews (migration 15). */
export interface ReviewThreadsTable {
  id: string;
  item_id: string;
  file_path: string | null;
  start_line: number | null;
  end_line: number | null;
  side: string | null;
  label: string | null;
  suggestion: string | null;
  state: string;
  anchor_sha: string | null;
  claim: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewCommentsTable {
  id: string;
  thread_id: string;
  by: string;
  person: string | null;
  body: string;
  claim: string | null;
  created_at: string;
}

export interface ReviewsTable {
  id: string;
  item_id: string;
  person: string;
  outcome: string;
  summary: string | null;
  gate: string | null;
  node: string | null;
  round: number | null;
  sha: string | null;
  created_at: string;
}

/** Permission asks (migration 16). `input` is the tool call's input as JSON text. */
export interface PermissionAsksTable {
  id: string;
  seq: number;
  item_id: string;
  session: string | null;
  tool_name: string;
  input: string;
  tool_use_id: string | null;
  state: string;
  note: string | null;
  created_at: string;
  decided_at: string | null;
  expires_at: string;
}

/** Merge requests (migration 17). `draft` is 0/1; `labels` a JSON list of names. */
export interface MergeRequestsTable {
  item_id: string;
  repo: string;
  number: number;
  url: string;
  state: string;
  draft: number;
  head: string;
  base: string;
  sha: string | null;
  title: string;
  labels: string;
  updated_at: string;
  /** Migration 18. */
  merge_sha: string | null;
}

export interface Database {
  work_items: WorkItemsTable;
  events: EventsTable;
  worker_sessions: WorkerSessionsTable;
  jig_meta: JigMetaTable;
  jig_schema: SchemaVersionTable;
  auth_sessions: AuthSessionsTable;
  workers: WorkersTable;
  item_claims: ItemClaimsTable;
  item_attachments: ItemAttachmentsTable;
  work_item_dependencies: WorkItemDependenciesTable;
  work_item_task_steers: WorkItemTaskSteersTable;
  schedule_firings: ScheduleFiringsTable;
  trigger_keys: TriggerKeysTable;
  drafts: DraftsTable;
  draft_steps: DraftStepsTable;
  intake_checks: IntakeChecksTable;
  item_issues: ItemIssuesTable;
  item_drafts: ItemDraftsTable;
  item_attempts: ItemAttemptsTable;
  review_viewed: ReviewViewedTable;
  review_threads: ReviewThreadsTable;
  review_comments: ReviewCommentsTable;
  reviews: ReviewsTable;
  permission_asks: PermissionAsksTable;
  merge_requests: MergeRequestsTable;
  search_entries: SearchEntriesTable;
}
