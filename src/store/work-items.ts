import type { Kysely, Transaction } from 'kysely';
import type { ItemStatus } from '../contract/item-status.js';
import { endedStatuses } from '../core/items/status.js';
import { Prepared } from './prepared.js';
import type { Database, WorkItemsTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;
type Json = Record<string, unknown>;

/** A work item row with its JSON columns parsed. */
export interface ItemRecord {
  id: string;
  title: string;
  description: string;
  status: ItemStatus;
  chain: string;
  repo: string;
  branch: string;
  base_branch: string | null;
  base_ref: string | null;
  source: 'human' | 'trigger' | 'schedule' | 'duplicate' | 'agent';
  attachments: Json;
  agent_overrides: Json;
  node_overrides: Json;
  policy_override: Json;
  budget_usd: number | null;
  spent_usd: number;
  spent_tokens: number;
  chain_definition: unknown;
  policy_snapshot: unknown;
  current_node: string | null;
  stop_kind: string | null;
  stop_reason: string | null;
  suggested_action: { action: string; reason: string } | null;
  worktree_path: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
  archived_at: string | null;
  /** Where the engine's walk is; null before the first start. */
  walk: WalkState | null;
  /** A note for the next agent launch (a steer), delivered once. */
  steer: string | null;
  queued_at: string | null;
}

/** The persisted position of an item's walk through its frozen chain. */
/** Where a wall clock started, and how much held time the item had by then. */
export interface WallClock {
  at: string;
  paused_ms: number;
}

export interface WalkState {
  node: number;
  step: number;
  /** Rejections per gate, for the reject-loop cap. */
  rejects: Record<string, number>;
  /** Gates approved in this run (so an approved gate passes when the walk reaches it again). */
  approved: string[];
  /** Documents tasks reported (`artifact_ref`), by the kind their task `produces`. */
  artifacts?: Record<string, string>;
  /*
   * Failure handling inside the current exec node (reference §2.7). All of it is cleared when the
   * walk moves to another node, or a person retries; an escalation that succeeds clears the counters
   * but keeps `escalated`.
   */
  /**
   * Which plan of the node runs now. `decide`: measured, the fix loop's checks come next; `judged`:
   * the judge has spoken for this cycle, the limits and stuck checks come next.
   */
  phase?: 'node' | 'base' | 'conflict' | 'recovery' | 'decide' | 'judge' | 'judged' | 'repair' | 'escalation';
  /** When the current step's launches began: sessions started since then belong to it (restarts). */
  step_at?: string | null;
  /** Entries into the node: 1 on arrival, one more after each escalation that succeeded. */
  entry?: number;
  /** The recovery plan (`on_failure` path) that ran in this entry, if any. */
  recovery?: string | null;
  /** Fix cycles counted in this entry (refunded ones are not). */
  cycles?: number;
  /** When the fix loop opened in this entry, for its wall clock. */
  loop_started_at?: string | null;
  /** Every measurement of this entry: its loop-severity findings (the findings history). */
  rounds?: {
    round: number;
    cycle: number;
    after_repair: boolean;
    findings: { tag: string; severity: string; message: string; line?: number; task: string }[];
  }[];
  /** Sessions of the measurement in progress (the node's own steps). */
  measured?: string[];
  /** The judge's reasoning for the repair about to run. */
  concerns?: string | null;
  /** The escalation task has run for this node. */
  escalated?: boolean;
  /** Why the node is stuck, while its escalation task runs. */
  stuck_reason?: string | null;
  /** A `read_only` step's snapshot taken before it ran. */
  read_only_before?: string | null;
  /** Every launch was rate limited: the item waits until this time, then tries the step again. */
  parked_until?: string | null;
  /** Automatic retries after rate limits in this node (policy `rate_limit_retries` bounds them). */
  rate_limit_retries?: number;
  /** `on_base_changed`: the base was compared at this entry of the node. */
  base_checked?: boolean;
  /** A rebase that conflicted, while the node's `on_conflict` plan resolves it. */
  conflict?: { base: string; base_tip: string; files: string[] } | null;
  /** Restarts `on_base_changed` made, per node (bounded like reject loops). */
  base_restarts?: Record<string, number>;
  /** Wall clocks for `total_time_cap_minutes`: the item's, the current node's, step's and gate's. */
  clock?: WallClock;
  node_clock?: WallClock | null;
  step_clock?: (WallClock & { path: string }) | null;
  gate_clock?: WallClock | null;
  /** Time the item was held by a person (paused, or stopped for anything but a gate or a rate limit). */
  paused_ms?: number;
  /** When the current hold began. */
  paused_at?: string | null;
  /** The step of the node's own steps that failed in the measurement in progress, if any. */
  failed_step?: number | null;
  /** A person's retry of one task: only that task of the current step runs again. */
  only_task?: string | null;
  /** Auto-review runs per pending gate (policy `auto_review_attempts` bounds them). */
  reviews?: Record<string, number>;
  /** Escalation turns Jig started by itself for a stuck item (policy `auto_escalate_stuck_cap`). */
  auto_escalations?: number;
}

const jsonColumns = ['attachments', 'agent_overrides', 'node_overrides', 'policy_override'] as const;
const nullableJson = ['chain_definition', 'policy_snapshot', 'suggested_action', 'walk'] as const;

/** Most JSON columns hold `{}`: a listing of 100 items parses 400 of them, so that one is free. */
function parseObject(text: string | undefined): Json {
  return text === undefined || text === '{}' ? {} : (JSON.parse(text) as Json);
}

function fromRow(r: Partial<WorkItemsTable>): ItemRecord {
  const out = { ...r } as unknown as Record<string, unknown>;
  for (const k of jsonColumns) out[k] = parseObject(r[k]);
  // A listing leaves out the frozen chain and policy (large, and not shown in lists): null there.
  for (const k of nullableJson)
    out[k] = r[k] === null || r[k] === undefined ? null : (JSON.parse(r[k]) as unknown);
  return out as unknown as ItemRecord;
}

/** Every column but the frozen chain and policy snapshot, which a listing never shows. */
export const listColumns = [
  'id',
  'title',
  'description',
  'status',
  'chain',
  'repo',
  'branch',
  'base_branch',
  'base_ref',
  'source',
  'attachments',
  'agent_overrides',
  'node_overrides',
  'policy_override',
  'budget_usd',
  'spent_usd',
  'spent_tokens',
  'current_node',
  'stop_kind',
  'stop_reason',
  'suggested_action',
  'worktree_path',
  'created_at',
  'updated_at',
  'started_at',
  'ended_at',
  'archived_at',
  'steer',
  'queued_at',
] as const satisfies readonly (keyof WorkItemsTable)[];

const jsonAt = new Set<string>(jsonColumns);
const nullableJsonAt = new Set<string>(nullableJson);

/**
 * A listing's row, read as an array in `listColumns` order (store.readArrays), as a record: the
 * columns a listing leaves out (the walk, the frozen chain and policy) are null.
 */
export function listRecord(values: readonly unknown[]): ItemRecord {
  const out: Record<string, unknown> = { chain_definition: null, policy_snapshot: null, walk: null };
  for (let i = 0; i < listColumns.length; i++) {
    const k = listColumns[i]!;
    const v = values[i];
    if (jsonAt.has(k)) out[k] = parseObject(typeof v === 'string' ? v : undefined);
    else if (nullableJsonAt.has(k)) out[k] = typeof v === 'string' ? (JSON.parse(v) as unknown) : null;
    else out[k] = v;
  }
  return out as unknown as ItemRecord;
}

function toRow(rec: Partial<ItemRecord>): Partial<WorkItemsTable> {
  const out = { ...rec } as Record<string, unknown>;
  for (const k of jsonColumns) if (k in rec) out[k] = JSON.stringify(rec[k] ?? {});
  for (const k of nullableJson)
    if (k in rec) out[k] = rec[k] === null || rec[k] === undefined ? null : JSON.stringify(rec[k]);
  return out;
}

/** Every column of the table, so one compiled insert serves every item. */
const allColumns = [
  ...listColumns,
  'chain_definition',
  'policy_snapshot',
  'walk',
] as const satisfies readonly (keyof WorkItemsTable)[];

// Filing and reading one item are the hottest queries of the store: compiled once (prepared.ts).
const insertQuery = new Prepared<WorkItemsTable, never>(allColumns, (db, row) =>
  db.insertInto('work_items').values(row),
);
const getQuery = new Prepared<{ id: string }, WorkItemsTable>(['id'], (db, p) =>
  db.selectFrom('work_items').selectAll().where('id', '=', p.id),
);

export async function insertItem(db: Db, rec: ItemRecord): Promise<void> {
  const row = toRow(rec);
  for (const k of allColumns) {
    if (!(k in row)) throw new Error(`insertItem: the record has no ${k}`);
  }
  await insertQuery.run(db, row as WorkItemsTable);
}

export async function getItem(db: Db, id: string): Promise<ItemRecord | null> {
  const row = (await getQuery.run(db, { id })).rows[0];
  return row ? fromRow(row) : null;
}

export async function updateItem(db: Db, id: string, patch: Partial<ItemRecord>): Promise<void> {
  await db.updateTable('work_items').set(toRow(patch)).where('id', '=', id).execute();
}

/** The state a move was decided on: its status, and whether the item was archived. */
export interface ExpectedState {
  status: ItemStatus;
  archived: boolean;
}

/**
 * Compare-and-set: writes the patch only while the row is still in the state the caller decided
 * on, and answers whether it did. Inside one SQLite transaction a read already sees the latest row;
 * the guard keeps the rule where transactions interleave (a second process, another store).
 */
export async function updateItemIf(
  db: Db,
  id: string,
  expected: ExpectedState,
  patch: Partial<ItemRecord>,
): Promise<boolean> {
  const r = await db
    .updateTable('work_items')
    .set(toRow(patch))
    .where('id', '=', id)
    .where('status', '=', expected.status)
    .where('archived_at', expected.archived ? 'is not' : 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** How many items not completed, cancelled or abandoned use this repo. */
export async function countOpenForRepo(db: Db, repo: string): Promise<number> {
  const row = await db
    .selectFrom('work_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('repo', '=', repo)
    .where('status', 'not in', endedStatuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function openCountsByRepo(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('work_items')
    .select(['repo', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'not in', endedStatuses)
    .groupBy('repo')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.repo, Number(r.n)]));
}
