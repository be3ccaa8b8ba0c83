import type { QueryClient } from '@tanstack/react-query';
import { callRoute, routes, type Item } from './api.js';
import { itemQuery, keys } from './queries.js';

/*
 * What a change to an item does to the board's cache. The lists (`['items', archived]`) hold every
 * item of their filter, read page by page; an item that changed is read once (`GET` of that item)
 * and put in place in each list, so a move costs one small read instead of the whole list again.
 * The item's own reads (`['item', id, …]`: its events, chain, threads, diff) are refreshed by their
 * prefix; nothing of another item is touched.
 *
 * A list is read again only when a patch cannot be exact:
 * - an item was created: it is in no list yet, and where it sorts among the server's pages is the
 *   server's to say;
 * - an item that belongs to a list is not in it (restored from the archive, or a list read before
 *   the item existed): the same;
 * - the item could not be read, or too many changed at once (a bulk move of hundreds): one read of
 *   the list is then cheaper than a read per item.
 * An item that left a list's filter (archived) is taken out of it without a read.
 */

/** More items than this changed in one batch: the lists are read again instead. */
export const PATCH_AT_MOST = 20;

/** A list with the item put in place, or `refetch` when it belongs there but the list lacks it. */
export function patchList(list: readonly Item[], item: Item, archived: boolean): readonly Item[] | 'refetch' {
  const at = list.findIndex((i) => i.id === item.id);
  const belongs = item.archived === archived;
  if (at < 0) return belongs ? 'refetch' : list;
  if (!belongs) return list.filter((i) => i.id !== item.id);
  const next = list.slice();
  next[at] = item;
  return next;
}

/** Every cached list, with its filter. */
function cachedLists(client: QueryClient): { key: readonly unknown[]; archived: boolean; list: Item[] }[] {
  return client
    .getQueriesData<Item[]>({ queryKey: keys.lists })
    .flatMap(([key, list]) => (list && typeof key[1] === 'boolean' ? [{ key, archived: key[1], list }] : []));
}

/** The item's own reads other than the item itself, which the caller has just put in place. */
const invalidateReadsOf = (client: QueryClient, id: string) => {
  const [scope, of] = keys.item(id);
  return client.invalidateQueries({
    predicate: (q) => q.queryKey[0] === scope && q.queryKey[1] === of && q.queryKey.length > 2,
  });
};

/** Puts an item as the server now answers it in place: its query, each list, and refreshes its reads. */
export async function putItem(client: QueryClient, item: Item): Promise<void> {
  client.setQueryData(itemQuery(item.id).queryKey, item);
  const stale: (readonly unknown[])[] = [];
  for (const { key, archived, list } of cachedLists(client)) {
    const next = patchList(list, item, archived);
    if (next === 'refetch') stale.push(key);
    else if (next !== list) client.setQueryData(key, next);
  }
  await Promise.all([
    invalidateReadsOf(client, item.id),
    ...stale.map((key) => client.invalidateQueries({ queryKey: key, exact: true })),
  ]);
}

/** Reads one item afresh and puts it in place; the lists are read again when it cannot be read. */
export async function refreshItem(
  client: QueryClient,
  id: string,
  read: (id: string) => Promise<Item> = (i) => callRoute(routes.getItem, { params: { id: i } }),
): Promise<void> {
  // A read of the item begun before this change would land after it and put the old state back.
  await client.cancelQueries({ queryKey: itemQuery(id).queryKey, exact: true });
  let item: Item;
  try {
    item = await read(id);
  } catch {
    await Promise.all([
      client.invalidateQueries({ queryKey: keys.item(id) }),
      client.invalidateQueries({ queryKey: keys.lists }),
    ]);
    return;
  }
  await putItem(client, item);
}

/** What one batch of live events asks of the cache. */
export interface Batch {
  /** The items the events name. */
  touched: ReadonlySet<string>;
  /** Whether an item was created (`work_item_created`). */
  created: boolean;
  /** Whether the stream (re)started: what was missed before its hello is not in any batch. */
  hello: boolean;
}

/** Brings the cache up to a batch of live events (live.ts calls it, one batch at a time). */
export async function applyBatch(
  client: QueryClient,
  batch: Batch,
  read?: (id: string) => Promise<Item>,
): Promise<void> {
  const whole = batch.created || batch.hello || batch.touched.size > PATCH_AT_MOST;
  if (whole) {
    await Promise.all([
      client.invalidateQueries({ queryKey: keys.lists }),
      ...[...batch.touched].map((id) => client.invalidateQueries({ queryKey: keys.item(id) })),
    ]);
    return;
  }
  const lists = cachedLists(client).length > 0;
  await Promise.all(
    [...batch.touched].map((id) =>
      // Nothing shows the item in a list or on its own: its reads are marked stale, and read when shown.
      lists || client.getQueryData(itemQuery(id).queryKey) !== undefined
        ? refreshItem(client, id, read)
        : client.invalidateQueries({ queryKey: keys.item(id) }),
    ),
  );
}
