import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { JigError } from '../contract/errors.js';
import { itemStatuses, stopKinds, type ItemStatus, type StopKind } from '../contract/item-status.js';
import type { ResolvedChain } from '../contract/config/chain-model.js';
import type { PolicyFile } from '../contract/config/policy.js';
import type { Walk } from '../contract/walk.js';
import { ItemWorkspace } from '../contract/item-workspace.js';
import { ITEM_SOURCES, type ItemSource } from '../contract/items.js';
import { readFrozen, writeFrozen } from './item-state.js';
import { endedStatuses } from '../core/items/status.js';
import { jsonText, storedText } from './dialect.js';
import { Prepared } from './prepared.js';
import type { Database, WorkItemsTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;
type Json = Record<string, unknown>;

/** A work item row with its JSON columns parsed (the frozen state with its schemas: item-state.ts). */
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
  source: ItemSource;
  attachments: Json;
  agent_overrides: Json;
  node_overrides: Json;
  policy_override: Json;
  /** Nodes filed to pass without running (`node_skipped` when the walk reaches one). */
  skip_nodes: string[];
  /** A gate's reviewer agent decides first: as filed, or null for the source's default (on for a person's). */
  auto_gate: boolean | null;
  budget_usd: number | null;
  spent_usd: number;
  spent_tokens: number;
  /** The chain as frozen at the first start; null before it. */
  chain_definition: ResolvedChain | null;
  /** The policy frozen with it. */
  policy_snapshot: PolicyFile | null;
  current_node: string | null;
  stop_kind: StopKind | null;
  stop_reason: string | null;
  suggested_action: { action: string; reason: string } | null;
  worktree_path: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
  archived_at: string | null;
  /** Where the engine's walk is; null before the first start. */
  walk: Walk | null;
  /** A note for the next agent launch (a steer), delivered once. */
  steer: string | null;
  queued_at: string | null;
  /** The workspace and members the item is filed on; null for an item on one repository. */
  workspace: ItemWorkspace | null;
  /**
   * Bumped each time the item is set running (slots.ts): a walk writes only while the epoch is the
   * one it started under, so a walk overtaken by a pause and a resume ends instead of going on.
   */
  run_epoch: number;
  /** The seq of the `gate_requested` event the item waits on (a decision names it), or null. */
  gate_request: number | null;
  /**
   * Why the frozen chain, policy or walk could not be read (written by a newer release, or not as
   * its schema says); null when they could. Not a column: the engine stops such an item.
   */
  state_error: string | null;
}

export type { ItemSource };

/** Most JSON columns hold `{}`: a listing of 100 items parses 400 of them, so that one is free. */
function parseObject(text: string | undefined): Json {
  return text === undefined || text === '{}' ? {} : (JSON.parse(text) as Json);
}

const Ids = z.array(z.string());

/** A damaged list reads as none: it must not make the whole item unreadable. */
function parseIds(text: string | undefined): string[] {
  if (text === undefined || text === '[]') return [];
  try {
    const parsed = Ids.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A workspace that does not parse is named in `state_error`: the engine must not run it on one repo. */
function parseWorkspace(text: string | null | undefined): {
  value: ItemWorkspace | null;
  error: string | null;
} {
  if (text === null || text === undefined) return { value: null, error: null };
  try {
    const r = ItemWorkspace.safeParse(JSON.parse(text));
    if (r.success) return { value: r.data, error: null };
    return { value: null, error: `its workspace does not parse: ${r.error.issues[0]?.message ?? 'invalid'}` };
  } catch {
    return { value: null, error: 'its workspace is not JSON' };
  }
}

function fromRow(r: WorkItemsTable): ItemRecord {
  const frozen = readFrozen(r.id, r);
  const ws = parseWorkspace(r.workspace);
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    status: itemStatus(r.status),
    chain: r.chain,
    repo: r.repo,
    branch: r.branch,
    base_branch: r.base_branch,
    base_ref: r.base_ref,
    source: itemSource(r.source),
    attachments: parseObject(r.attachments),
    agent_overrides: parseObject(r.agent_overrides),
    node_overrides: parseObject(r.node_overrides),
    policy_override: parseObject(r.policy_override),
    skip_nodes: parseIds(r.skip_nodes),
    auto_gate: r.auto_gate === null || r.auto_gate === undefined ? null : r.auto_gate === 1,
    budget_usd: r.budget_usd,
    spent_usd: r.spent_usd,
    spent_tokens: r.spent_tokens,
    chain_definition: frozen.chain_definition,
    policy_snapshot: frozen.policy_snapshot,
    current_node: r.current_node,
    stop_kind: stopKind(r.stop_kind),
    stop_reason: r.stop_reason,
    suggested_action: suggestedAction(r.suggested_action),
    worktree_path: r.worktree_path,
    created_at: r.created_at,
    updated_at: r.updated_at,
    started_at: r.started_at,
    ended_at: r.ended_at,
    archived_at: r.archived_at,
    walk: frozen.walk,
    steer: r.steer,
    queued_at: r.queued_at,
    workspace: ws.value,
    run_epoch: Number(r.run_epoch ?? 0),
    gate_request: r.gate_request === null || r.gate_request === undefined ? null : Number(r.gate_request),
    state_error: frozen.state_error ?? ws.error,
  };
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
  'skip_nodes',
  'auto_gate',
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
  'workspace',
  'run_epoch',
  'gate_request',
] as const satisfies readonly (keyof WorkItemsTable)[];

/**
 * A listing's row, read as an array in `listColumns` order (store.readArrays), as a record: the
 * columns a listing leaves out (the walk, the frozen chain and policy) are null.
 */
export function listRecord(values: readonly unknown[]): ItemRecord {
  const row: Partial<Record<keyof WorkItemsTable, unknown>> = {
    chain_definition: null,
    policy_snapshot: null,
    walk: null,
  };
  listColumns.forEach((k, i) => (row[k] = values[i]));
  // The columns of this table in their order, as Kysely would have typed them.
  return fromRow(row as WorkItemsTable);
}

/**
 * The columns of a record or a patch (only the fields it has), field by field: a rest pattern
 * and a spread of the rest made an object V8 could only add to slowly, 36 µs a call, a tenth of
 * filing an item; this takes under 2 µs. The fields not named here are ItemRecord's own
 * (state_error), not columns.
 */
function toRow(rec: Partial<ItemRecord>): Partial<WorkItemsTable> {
  const out: Partial<WorkItemsTable> = {};
  if (rec.id !== undefined) out.id = rec.id;
  if (rec.title !== undefined) out.title = rec.title;
  if (rec.description !== undefined) out.description = rec.description;
  if (rec.status !== undefined) out.status = rec.status;
  if (rec.chain !== undefined) out.chain = rec.chain;
  if (rec.repo !== undefined) out.repo = rec.repo;
  if (rec.branch !== undefined) out.branch = rec.branch;
  if (rec.base_branch !== undefined) out.base_branch = rec.base_branch;
  if (rec.base_ref !== undefined) out.base_ref = rec.base_ref;
  if (rec.source !== undefined) out.source = rec.source;
  if (rec.budget_usd !== undefined) out.budget_usd = rec.budget_usd;
  if (rec.spent_usd !== undefined) out.spent_usd = rec.spent_usd;
  if (rec.spent_tokens !== undefined) out.spent_tokens = rec.spent_tokens;
  if (rec.current_node !== undefined) out.current_node = rec.current_node;
  if (rec.stop_kind !== undefined) out.stop_kind = rec.stop_kind;
  if (rec.stop_reason !== undefined) out.stop_reason = rec.stop_reason;
  if (rec.worktree_path !== undefined) out.worktree_path = rec.worktree_path;
  if (rec.created_at !== undefined) out.created_at = rec.created_at;
  if (rec.updated_at !== undefined) out.updated_at = rec.updated_at;
  if (rec.started_at !== undefined) out.started_at = rec.started_at;
  if (rec.ended_at !== undefined) out.ended_at = rec.ended_at;
  if (rec.archived_at !== undefined) out.archived_at = rec.archived_at;
  if (rec.steer !== undefined) out.steer = rec.steer;
  if (rec.queued_at !== undefined) out.queued_at = rec.queued_at;
  if (rec.run_epoch !== undefined) out.run_epoch = rec.run_epoch;
  if (rec.gate_request !== undefined) out.gate_request = rec.gate_request;
  const { attachments, agent_overrides, node_overrides, policy_override, skip_nodes, auto_gate } = rec;
  if (attachments !== undefined) out.attachments = JSON.stringify(attachments);
  if (agent_overrides !== undefined) out.agent_overrides = JSON.stringify(agent_overrides);
  if (node_overrides !== undefined) out.node_overrides = JSON.stringify(node_overrides);
  if (policy_override !== undefined) out.policy_override = JSON.stringify(policy_override);
  if (skip_nodes !== undefined) out.skip_nodes = JSON.stringify(skip_nodes);
  if (auto_gate !== undefined) out.auto_gate = auto_gate === null ? null : auto_gate ? 1 : 0;
  const { chain_definition, policy_snapshot, suggested_action, walk, workspace } = rec;
  if (chain_definition !== undefined)
    out.chain_definition = chain_definition && writeFrozen(chain_definition);
  if (policy_snapshot !== undefined) out.policy_snapshot = policy_snapshot && writeFrozen(policy_snapshot);
  if (suggested_action !== undefined)
    out.suggested_action = suggested_action && JSON.stringify(suggested_action);
  if (walk !== undefined) out.walk = walk && JSON.stringify(walk);
  if (workspace !== undefined) out.workspace = workspace && JSON.stringify(workspace);
  return out;
}

const statusSet = new Set<string>(itemStatuses);
const stopSet = new Set<string>(stopKinds);
const sourceSet = new Set<string>(ITEM_SOURCES);

// The text columns Jig itself writes from these lists; a value outside them is a row this release
// did not write, read as the nearest safe meaning.
export function itemStatus(s: string): ItemStatus {
  return statusSet.has(s) ? (s as ItemStatus) : 'stopped';
}
function stopKind(s: string | null): StopKind | null {
  return s === null ? null : stopSet.has(s) ? (s as StopKind) : 'infra';
}
function itemSource(s: string): ItemSource {
  return sourceSet.has(s) ? (s as ItemSource) : 'human';
}
function suggestedAction(text: string | null): ItemRecord['suggested_action'] {
  if (text === null) return null;
  const v = JSON.parse(text) as unknown;
  if (v && typeof v === 'object' && 'action' in v && 'reason' in v) {
    const { action, reason } = v;
    if (typeof action === 'string' && typeof reason === 'string') return { action, reason };
  }
  return null;
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

/** Inserts the item; answers it as the store keeps it (a text column's NUL, on PostgreSQL: storedText). */
export async function insertItem(db: Db, rec: ItemRecord): Promise<ItemRecord> {
  const row = toRow(rec);
  for (const k of allColumns) {
    if (!(k in row)) throw new Error(`insertItem: the record has no ${k}`);
  }
  await insertQuery.run(db, row as WorkItemsTable);
  return { ...rec, title: storedText(db, rec.title), description: storedText(db, rec.description) };
}

export async function getItem(db: Db, id: string): Promise<ItemRecord | null> {
  const row = (await getQuery.run(db, { id })).rows[0];
  return row ? fromRow(row) : null;
}

/** The item as stored, or the catalogue's 404 (every service's `record`). */
export async function itemOr404(db: Db, id: string): Promise<ItemRecord> {
  const rec = await getItem(db, id);
  if (!rec) throw new JigError('item_not_found', { id });
  return rec;
}

const runStateQuery = new Prepared<{ id: string }, Pick<WorkItemsTable, 'status' | 'run_epoch'>>(
  ['id'],
  (db, p) => db.selectFrom('work_items').select(['status', 'run_epoch']).where('id', '=', p.id),
);

/**
 * The item's status and run epoch, or null for no such item: what a walk's fence asks before each
 * step. Not the whole row, whose frozen chain and walk grow with the chain (a 50-step chain's row
 * took 165 µs to read and more to parse, several times a task).
 */
export async function runStateOf(
  db: Db,
  id: string,
): Promise<{ status: ItemStatus; run_epoch: number } | null> {
  const row = (await runStateQuery.run(db, { id })).rows[0];
  return row ? { status: itemStatus(row.status), run_epoch: Number(row.run_epoch ?? 0) } : null;
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

/** The items not ended that use this repo, oldest first: what a refused disconnect names. */
export async function openItemsForRepo(db: Db, repo: string): Promise<{ id: string; status: string }[]> {
  return db
    .selectFrom('work_items')
    .select(['id', 'status'])
    .where('repo', '=', repo)
    .where('status', 'not in', endedStatuses)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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

/**
 * The add-on versions the frozen chains of items not ended pin, namespace → digests: the content
 * store keeps each until no open item names it (docs/addons.md). Only rows whose chain mentions
 * `addons` are parsed.
 */
export async function openAddonPins(db: Db): Promise<Map<string, Set<string>>> {
  const rows = await db
    .selectFrom('work_items')
    .select(['id', 'chain_definition'])
    .where('status', 'not in', endedStatuses)
    .where(jsonText('chain_definition'), 'like', '%"addons"%')
    .execute();
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const chain = readFrozen(r.id, { chain_definition: r.chain_definition }).chain_definition;
    for (const [ns, digest] of Object.entries(chain?.addons ?? {})) {
      const set = out.get(ns) ?? new Set<string>();
      set.add(digest);
      out.set(ns, set);
    }
  }
  return out;
}
