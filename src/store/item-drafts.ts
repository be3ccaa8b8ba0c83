import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { ItemDraftOps, type ItemDraftOp } from '../contract/items/draft.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** A work item's own chain draft as stored (spec drafts.md "Item drafts"). */
export interface ItemDraftRecord {
  work_item_id: string;
  ops: ItemDraftOp[];
  /** The item's latest event number when the draft was created; kept across writes. */
  base_seq: number;
  updated_at: string;
}

/** The stored op list, checked with the PUT's own schema: a row that does not pass is a damaged row. */
function parseOps(text: string, id: string): ItemDraftOp[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`the draft of work item ${id} is not JSON`);
  }
  const r = ItemDraftOps.safeParse(raw);
  if (!r.success)
    throw new Error(
      `the draft of work item ${id} does not match its schema: ${r.error.issues[0]?.message ?? ''}`,
    );
  return r.data;
}

export async function loadItemDraft(db: Db, id: string): Promise<ItemDraftRecord | null> {
  const row = await db
    .selectFrom('item_drafts')
    .selectAll()
    .where('work_item_id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        work_item_id: row.work_item_id,
        ops: parseOps(row.ops, id),
        base_seq: row.base_seq,
        updated_at: row.updated_at,
      }
    : null;
}

/** Writes the draft whole (opening it when there was none). */
export async function saveItemDraft(db: Db, d: ItemDraftRecord): Promise<void> {
  const ops = JSON.stringify(d.ops);
  await db
    .insertInto('item_drafts')
    .values({ work_item_id: d.work_item_id, ops, base_seq: d.base_seq, updated_at: d.updated_at })
    .onConflict((oc) =>
      oc.column('work_item_id').doUpdateSet({ ops, base_seq: d.base_seq, updated_at: d.updated_at }),
    )
    .execute();
}

/** Drops the draft; answers whether there was one. */
export async function dropItemDraft(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('item_drafts').where('work_item_id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The item's latest event number (0 before any). */
export async function latestItemSeq(db: Db, id: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('m'))
    .where('work_item_id', '=', id)
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

const SkippedPayload = z.object({ path: z.string(), node: z.string() });
const RevisedPayload = z.object({ added: z.array(z.string()) });

function payloadOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // A damaged row means nothing here; it must not stop every step of the item.
  }
}

/**
 * The paths the item's `scope_skipped` events name: steps and tasks its walk passes without
 * running. A node a later revision added anew (removed, then added with the same id) is a new
 * node: the skips of the old one do not reach it.
 */
export async function skippedScopes(db: Db, id: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('work_item_id', '=', id)
    .where('type', 'in', ['scope_skipped', 'chain_revised'])
    .orderBy('seq')
    .execute();
  const skips = new Map<string, string>();
  for (const r of rows) {
    if (r.type === 'scope_skipped') {
      const p = SkippedPayload.safeParse(payloadOf(r.payload));
      if (p.success) skips.set(p.data.path, p.data.node);
      continue;
    }
    const p = RevisedPayload.safeParse(payloadOf(r.payload));
    if (!p.success) continue;
    for (const [path, node] of skips) if (p.data.added.includes(node)) skips.delete(path);
  }
  return new Set(skips.keys());
}

/**
 * Per node id, what running a node of that id cost the items of this instance: the average over
 * the items that ran one (sessions of every kind, an unknown cost counted as 0), and how many
 * items that is. Ids no item ran are absent. `except` leaves one item out (the one asking).
 */
export async function nodeCostHistory(
  db: Db,
  nodes: readonly string[],
  except: string,
): Promise<Map<string, { usd: number; runs: number }>> {
  const out = new Map<string, { usd: number; runs: number }>();
  if (nodes.length === 0) return out;
  const rows = await db
    .selectFrom('worker_sessions')
    .select((eb) => [
      'node',
      'work_item_id',
      eb.fn.coalesce(eb.fn.sum<number>('cost_usd'), eb.val(0)).as('usd'),
    ])
    .where('node', 'in', [...nodes])
    .where('work_item_id', '!=', except)
    .groupBy(['node', 'work_item_id'])
    .execute();
  const sums = new Map<string, { total: number; runs: number }>();
  for (const r of rows) {
    const s = sums.get(r.node) ?? { total: 0, runs: 0 };
    s.total += Number(r.usd);
    s.runs += 1;
    sums.set(r.node, s);
  }
  for (const [node, s] of sums) out.set(node, { usd: s.total / s.runs, runs: s.runs });
  return out;
}
