import type { Kysely, Transaction } from 'kysely';
import type { ItemStatus } from '../contract/item-status.js';
import { cycleThrough } from '../core/items/dependency-cycle.js';
import type { Database } from './schema.js';
import { itemStatus } from './work-items.js';

type Db = Kysely<Database> | Transaction<Database>;

/** An item another comes after (or that comes after it), as a person reads it. */
export interface LinkedItem {
  id: string;
  title: string;
  status: ItemStatus;
}

/** The edge's two ends: what an item comes after (`after`), or what comes after it (`before`). */
function linkedQuery(db: Db, id: string, side: 'after' | 'before') {
  const [mine, theirs] =
    side === 'after' ? (['item_id', 'dependency_id'] as const) : (['dependency_id', 'item_id'] as const);
  return db
    .selectFrom('work_item_dependencies as d')
    .innerJoin('work_items as w', 'w.id', `d.${theirs}`)
    .select(['w.id as id', 'w.title as title', 'w.status as status'])
    .where(`d.${mine}`, '=', id);
}

const asLinked = (rows: { id: string; title: string; status: string }[]): LinkedItem[] =>
  rows.map((r) => ({ ...r, status: itemStatus(r.status) }));

/** What an item comes after, in the order they were named. */
export async function dependenciesOf(db: Db, id: string): Promise<LinkedItem[]> {
  return asLinked(await linkedQuery(db, id, 'after').orderBy('d.position').execute());
}

/** The items that come after this one. */
export async function dependentsOf(db: Db, id: string): Promise<LinkedItem[]> {
  return asLinked(await linkedQuery(db, id, 'before').orderBy('w.created_at').orderBy('w.id').execute());
}

/** The items of `ids` that exist, as a person reads them (what a filing's `after` names). */
export async function linkedItems(db: Db, ids: readonly string[]): Promise<LinkedItem[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('work_items')
    .select(['id', 'title', 'status'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return asLinked(rows);
}

/** Why a set of dependencies cannot be written: ids that are no items, or the cycle they close. */
export type DependencyRefusal = { unknown: string[] } | { cycle: string[] };

/**
 * Why `after` cannot be what an item comes after, or null: every id must be an item, and the edges
 * may not close a cycle (the item itself included). Read only, so a PATCH checks it before it
 * touches anything; the write checks it again in its transaction. The whole table is read: an
 * instance's dependencies are few, and one read beats a round trip per step of a walk.
 */
export async function dependencyProblem(
  db: Db,
  id: string,
  after: readonly string[],
): Promise<DependencyRefusal | null> {
  const wanted = [...new Set(after)];
  if (wanted.length > 0) {
    const found = await db.selectFrom('work_items').select('id').where('id', 'in', wanted).execute();
    const known = new Set(found.map((r) => r.id));
    const unknown = wanted.filter((d) => !known.has(d));
    if (unknown.length > 0) return { unknown };
  }
  const edges = await db.selectFrom('work_item_dependencies').select(['item_id', 'dependency_id']).execute();
  const out = new Map<string, string[]>();
  for (const e of edges)
    if (e.item_id !== id) out.set(e.item_id, [...(out.get(e.item_id) ?? []), e.dependency_id]);
  const cycle = cycleThrough(id, wanted, (x) => out.get(x) ?? []);
  return cycle ? { cycle } : null;
}

/** Replaces what an item comes after, inside the caller's transaction, unless dependencyProblem refuses it. */
export async function setDependencies(
  db: Db,
  id: string,
  after: readonly string[],
  now: string,
): Promise<DependencyRefusal | null> {
  const refused = await dependencyProblem(db, id, after);
  if (refused) return refused;
  const wanted = [...new Set(after)];
  await db.deleteFrom('work_item_dependencies').where('item_id', '=', id).execute();
  if (wanted.length > 0)
    await db
      .insertInto('work_item_dependencies')
      .values(wanted.map((d, position) => ({ item_id: id, dependency_id: d, position, created_at: now })))
      .execute();
  return null;
}

/** Drops some (or all) of what an item comes after; answers the ids dropped. */
export async function dropDependencies(db: Db, id: string, only?: readonly string[]): Promise<string[]> {
  let q = db.deleteFrom('work_item_dependencies').where('item_id', '=', id);
  if (only) {
    if (only.length === 0) return [];
    q = q.where('dependency_id', 'in', [...only]);
  }
  const rows = await q.returning('dependency_id').execute();
  return rows.map((r) => r.dependency_id).sort();
}

/** Items blocked on their dependencies: looked at again when the engine starts leading. */
export async function blockedItemIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('work_items').select('id').where('status', '=', 'blocked').execute();
  return rows.map((r) => r.id);
}

/** For each of `ids`, what it comes after that has not completed (one read for a page of items). */
export async function waitingOnOf(db: Db, ids: readonly string[]): Promise<Map<string, LinkedItem[]>> {
  const out = new Map<string, LinkedItem[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('work_item_dependencies as d')
    .innerJoin('work_items as w', 'w.id', 'd.dependency_id')
    .select(['d.item_id as item', 'w.id as id', 'w.title as title', 'w.status as status'])
    .where('d.item_id', 'in', [...ids])
    .where('w.status', '!=', 'completed')
    .orderBy('d.item_id')
    .orderBy('d.position')
    .execute();
  for (const r of rows)
    out.set(r.item, [...(out.get(r.item) ?? []), { id: r.id, title: r.title, status: itemStatus(r.status) }]);
  return out;
}
