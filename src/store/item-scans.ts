import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { ItemStatus } from '../contract/item-status.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The ids of the items in one status (a restart continues every `running` one). */
export async function itemIdsIn(db: Db, status: ItemStatus): Promise<string[]> {
  const rows = await db.selectFrom('work_items').select('id').where('status', '=', status).execute();
  return rows.map((r) => r.id);
}

/** The items stopped on a rate limit: each waits on a timer for its reset (re-armed after a restart). */
export async function parkedItemIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('work_items')
    .select('id')
    .where('status', '=', 'stopped')
    .where('stop_kind', '=', 'rate_limit')
    .execute();
  return rows.map((r) => r.id);
}

const clockedQueries = new WeakMap<Db, CompiledQuery<{ id: string }>>();

/**
 * The items whose wall clocks run: running or queued, waiting at a gate, or parked on a rate limit
 * (a stop for a person holds the clocks, so those are left out). The wall-clock sweep asks every
 * second, on an idle server too: the query is built once per connection (Kysely's building and
 * the garbage it left were most of what a sweep of no items cost).
 */
export async function clockedItemIds(db: Db): Promise<string[]> {
  let query = clockedQueries.get(db);
  if (!query) {
    query = db
      .selectFrom('work_items')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['running', 'queued', 'waiting']),
          eb.and([eb('status', '=', 'stopped'), eb('stop_kind', 'in', ['gate', 'rate_limit'])]),
        ]),
      )
      .compile();
    clockedQueries.set(db, query);
  }
  const { rows } = await db.executeQuery(query);
  return rows.map((r) => r.id);
}

/** How many items that have not ended were filed on `chain` (they keep the version they froze). */
export async function openItemsOnChain(db: Db, chain: string): Promise<number> {
  const row = await db
    .selectFrom('work_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chain', '=', chain)
    .where('status', 'in', ['paused', 'blocked', 'queued', 'running', 'stopped', 'waiting'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
