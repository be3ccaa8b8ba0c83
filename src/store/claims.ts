import type { Kysely, Selectable, Transaction } from 'kysely';
import { onPostgres } from './dialect.js';
import type { Database, WorkersTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * Who walks which item when several processes share a PostgreSQL store (docs/scale-out.md). A
 * process says it is alive in `workers`; a running item is walked by the process its `item_claims`
 * row names, and every claim bumps the row's generation, the fence a returning worker compares.
 */

export type WorkerRow = Selectable<WorkersTable>;
/** A process as it registers (it leads only once it holds the lock). */
export type NewWorker = Omit<WorkerRow, 'leads' | 'url' | 'peer_token'>;

/** Records this process at its start (a name used before is taken over: the same worker returns). */
export async function registerWorker(db: Db, row: NewWorker): Promise<void> {
  await db
    .insertInto('workers')
    .values(row)
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        role: row.role,
        host: row.host,
        home: row.home,
        pid: row.pid,
        takes_work: row.takes_work,
        started_at: row.started_at,
        heartbeat_at: row.heartbeat_at,
        stopped_at: null,
        leads: 0,
        url: null,
        peer_token: null,
      }),
    )
    .execute();
}

/**
 * A process started in a home succeeds the one that ran there before under another name (the pid
 * lock allows one at a time, so that one is gone): its claims and running sessions become this
 * one's, the claims at a new generation, and its row is dropped. Answers the names succeeded.
 */
export async function succeed(db: Db, me: string, host: string, home: string, at: string): Promise<string[]> {
  const before = await db
    .selectFrom('workers')
    .select('name')
    .where('host', '=', host)
    .where('home', '=', home)
    .where('name', '!=', me)
    .execute();
  const names = before.map((r) => r.name);
  if (names.length === 0) return [];
  await db
    .updateTable('item_claims')
    .set((eb) => ({ worker: me, generation: eb('generation', '+', 1), claimed_at: at }))
    .where('worker', 'in', names)
    .execute();
  // Every session whose end it did not record: running ones to adopt, released ones to fence.
  await db
    .updateTable('worker_sessions')
    .set({ worker: me })
    .where('exit_code', 'is', null)
    .where('worker', 'in', names)
    .execute();
  await db.deleteFrom('workers').where('name', 'in', names).execute();
  return names;
}

export async function workerNamed(db: Db, name: string): Promise<WorkerRow | null> {
  return (await db.selectFrom('workers').selectAll().where('name', '=', name).executeTakeFirst()) ?? null;
}

/** Running items this process holds but does not walk now (resumed after a stop, say). */
export async function ownIdle(db: Db, me: string, walking: readonly string[]): Promise<string[]> {
  let q = db
    .selectFrom('item_claims as c')
    .innerJoin('work_items as w', 'w.id', 'c.work_item_id')
    .select('w.id')
    .where('c.worker', '=', me)
    .where('w.status', '=', 'running')
    .orderBy('w.started_at')
    .orderBy('w.id');
  if (walking.length > 0) q = q.where('w.id', 'not in', [...walking]);
  if (onPostgres(db)) q = q.forUpdate('w').skipLocked();
  return (await q.execute()).map((r) => r.id);
}

export async function heartbeat(db: Db, name: string, at: string): Promise<void> {
  await db.updateTable('workers').set({ heartbeat_at: at }).where('name', '=', name).execute();
}

export async function markStopped(db: Db, name: string, at: string): Promise<void> {
  await db.updateTable('workers').set({ stopped_at: at, leads: 0 }).where('name', '=', name).execute();
}

/** Where this process answers other processes, and the bearer they present (server/forward.ts). */
export async function advertise(db: Db, name: string, url: string, token: string): Promise<void> {
  await db.updateTable('workers').set({ url, peer_token: token }).where('name', '=', name).execute();
}

/** Records whether this process leads (one at a time holds the lock; the row only tells others). */
export async function markLeading(db: Db, name: string, leads: boolean): Promise<void> {
  await db
    .updateTable('workers')
    .set({ leads: leads ? 1 : 0 })
    .where('name', '=', name)
    .execute();
}

export async function listWorkers(db: Db): Promise<WorkerRow[]> {
  return db.selectFrom('workers').selectAll().orderBy('name').execute();
}

/** Forgets processes that stopped (or went silent) before `before`: the list stays what runs now. */
export async function pruneWorkers(db: Db, before: string): Promise<void> {
  await db.deleteFrom('workers').where('heartbeat_at', '<', before).execute();
}

export interface ClaimRow {
  worker: string | null;
  generation: number;
}

export async function claimOf(db: Db, itemId: string): Promise<ClaimRow | null> {
  const row = await db
    .selectFrom('item_claims')
    .select(['worker', 'generation'])
    .where('work_item_id', '=', itemId)
    .executeTakeFirst();
  return row ? { worker: row.worker, generation: Number(row.generation) } : null;
}

/** The status of several items at once (the fence's look at the items a process holds). */
export async function statusesOf(db: Db, itemIds: readonly string[]): Promise<Map<string, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('work_items')
    .select(['id', 'status'])
    .where('id', 'in', [...itemIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** The claims of several items at once (a claim round's rows). */
export async function claimsOf(db: Db, itemIds: readonly string[]): Promise<Map<string, ClaimRow>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('item_claims')
    .select(['work_item_id', 'worker', 'generation'])
    .where('work_item_id', 'in', [...itemIds])
    .execute();
  return new Map(rows.map((r) => [r.work_item_id, { worker: r.worker, generation: Number(r.generation) }]));
}

/**
 * Claims items nobody holds, in two statements: rows never claimed are inserted at generation 1,
 * released rows are taken at their generation + 1. Answers each item's new generation.
 */
export async function claimFree(
  db: Db,
  fresh: readonly string[],
  released: ReadonlyMap<string, number>,
  worker: string,
  at: string,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (fresh.length > 0) {
    await db
      .insertInto('item_claims')
      .values(fresh.map((id) => ({ work_item_id: id, worker, generation: 1, claimed_at: at })))
      .execute();
    for (const id of fresh) out.set(id, 1);
  }
  if (released.size > 0) {
    await db
      .updateTable('item_claims')
      .set((eb) => ({ worker, generation: eb('generation', '+', 1), claimed_at: at }))
      .where('work_item_id', 'in', [...released.keys()])
      .execute();
    for (const [id, g] of released) out.set(id, g + 1);
  }
  return out;
}

/** Sets the holder of an item's claim, bumping its generation; answers the new generation. */
export async function setClaim(db: Db, itemId: string, worker: string, at: string): Promise<number> {
  const cur = await claimOf(db, itemId);
  const generation = (cur?.generation ?? 0) + 1;
  if (cur) {
    await db
      .updateTable('item_claims')
      .set({ worker, generation, claimed_at: at })
      .where('work_item_id', '=', itemId)
      .execute();
  } else {
    await db
      .insertInto('item_claims')
      .values({ work_item_id: itemId, worker, generation, claimed_at: at })
      .execute();
  }
  return generation;
}

/** Whether a process has said nothing since `since` (or stopped, or was never seen): its claims lapse. */
export async function isSilent(db: Db, name: string, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('workers')
    .select(['heartbeat_at', 'stopped_at', 'takes_work'])
    .where('name', '=', name)
    .executeTakeFirst();
  // A stopped process counts as alive until its silence runs out: started again by then, it adopts
  // its sessions and keeps its items.
  return !row || row.heartbeat_at < since || Number(row.takes_work) === 0;
}

/** How many processes that take work have been heard from since `since`. */
export async function liveTakers(db: Db, since: string): Promise<number> {
  const row = await db
    .selectFrom('workers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('takes_work', '=', 1)
    .where('heartbeat_at', '>=', since)
    .where('stopped_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Running items this process may walk, the longest running first: unclaimed, claimed by a process
 * silent since `since`, or its own but not walked here now (`walking`). On PostgreSQL the rows are
 * taken `FOR UPDATE SKIP LOCKED`, so two workers claiming at once never take the same item.
 */
export async function claimable(
  db: Db,
  me: string,
  since: string,
  walking: readonly string[],
  limit: number,
): Promise<string[]> {
  let q = db
    .selectFrom('work_items as w')
    .leftJoin('item_claims as c', 'c.work_item_id', 'w.id')
    .select('w.id')
    .where('w.status', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('c.worker', 'is', null),
        eb('c.worker', '=', me),
        eb(
          'c.worker',
          'not in',
          eb
            .selectFrom('workers')
            .select('name')
            .where('heartbeat_at', '>=', since)
            .where('takes_work', '=', 1),
        ),
      ]),
    )
    .orderBy('w.started_at')
    .orderBy('w.id')
    .limit(limit);
  if (walking.length > 0) q = q.where('w.id', 'not in', [...walking]);
  if (onPostgres(db)) q = q.forUpdate('w').skipLocked();
  return (await q.execute()).map((r) => r.id);
}

/** The items this process holds (for the fence: each is checked against what the store says). */
export async function claimsHeldBy(db: Db, worker: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('item_claims')
    .select(['work_item_id', 'generation'])
    .where('worker', '=', worker)
    .execute();
  return new Map(rows.map((r) => [r.work_item_id, Number(r.generation)]));
}
