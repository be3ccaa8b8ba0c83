import type { ItemStatus } from '../contract/item-status.js';
import type { Kysely } from 'kysely';
import type { Store } from './database.js';
import type { Database } from './schema.js';
import { listColumns, listRecord, type ItemRecord } from './work-items.js';
import { jsonText } from './dialect.js';

export interface ItemFilter {
  statuses?: ItemStatus[];
  repo?: string;
  chain?: string;
  archived: 'true' | 'false' | 'all';
  limit: number;
  cursor?: { created_at: string; id: string };
}

/**
 * Newest first, keyset-paged on (created_at, id) so a page never skips or repeats an item. The
 * board and the CLI read this list more than anything else: rows come as arrays and the total is
 * counted again only after the store changed (database.ts).
 */
export async function listItems(
  store: Store,
  f: ItemFilter,
): Promise<{ rows: ItemRecord[]; total: number; more: boolean }> {
  let q = store.db.selectFrom('work_items');
  if (f.statuses && f.statuses.length > 0) q = q.where('status', 'in', f.statuses);
  if (f.repo !== undefined) q = q.where('repo', '=', f.repo);
  if (f.chain !== undefined) q = q.where('chain', '=', f.chain);
  if (f.archived === 'true') q = q.where('archived_at', 'is not', null);
  if (f.archived === 'false') q = q.where('archived_at', 'is', null);
  const total = await store.countCached(q.select((eb) => eb.fn.countAll<number>().as('n')).compile());
  let page = q.select(listColumns);
  if (f.cursor) {
    const c = f.cursor;
    page = page.where((eb) =>
      eb.or([
        eb('created_at', '<', c.created_at),
        eb.and([eb('created_at', '=', c.created_at), eb('id', '<', c.id)]),
      ]),
    );
  }
  const rows = await store.readArrays(
    page
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit + 1)
      .compile(),
  );
  const more = rows.length > f.limit;
  return { rows: rows.slice(0, f.limit).map(listRecord), total, more };
}

/**
 * Items whose worktree still has to be reclaimed: archived ones that keep a worktree, and abandoned
 * ones without the `worktree_reclaimed` record. Abandon happens once and always ends with that
 * record; an archive can come again after a restore, so there the worktree column tells. An item
 * abandoned before the record existed carries its cleanup in its `work_item_abandoned` payload
 * (`worktree_removed`): not again.
 */
export async function itemsToReclaim(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('work_items as w')
    .select('w.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('w.archived_at', 'is not', null), eb('w.worktree_path', 'is not', null)]),
        eb.and([
          eb('w.status', '=', 'abandoned'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('events as e')
                .select('e.seq')
                .whereRef('e.work_item_id', '=', 'w.id')
                .where('e.type', '=', 'worktree_reclaimed'),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('events as e')
                .select('e.seq')
                .whereRef('e.work_item_id', '=', 'w.id')
                .where('e.type', '=', 'work_item_abandoned')
                .where(jsonText('e.payload'), 'like', '%"worktree_removed"%'),
            ),
          ),
        ]),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
