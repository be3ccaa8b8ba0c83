import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * The queries that decide who holds a run slot. One machine runs them inside the engine's
 * transaction; when several workers share a PostgreSQL store, the claim of queued rows here is
 * where `FOR UPDATE SKIP LOCKED` goes (DESIGN.md, "Later: more than one machine").
 */

/** How many items hold a run slot (status `running`), leaving out `except` (the item asking for one). */
export async function runningCount(db: Db, except?: string): Promise<number> {
  let q = db
    .selectFrom('work_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'running');
  if (except !== undefined) q = q.where('id', '!=', except);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Queued items, the longest waiting first, at most `limit` of them. */
export async function oldestQueued(
  db: Db,
  limit: number,
): Promise<{ id: string; started_at: string | null; run_epoch: number }[]> {
  return db
    .selectFrom('work_items')
    .select(['id', 'started_at', 'run_epoch'])
    .where('status', '=', 'queued')
    .orderBy('queued_at')
    .limit(limit)
    .execute();
}

/** How many items hold or wait for a run slot (running or queued): auto-intake's measure of room. */
export async function activeCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('work_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['running', 'queued'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
