import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { Item } from './api.js';
import { anItem } from './fixtures.js';
import { applyBatch, patchList, PATCH_AT_MOST, putItem, refreshItem } from './item-cache.js';
import { itemQuery, itemsQuery } from './queries.js';

const a = anItem({ id: 'aaaaaaaa', title: 'a' });
const b = anItem({ id: 'bbbbbbbb', title: 'b' });
const running = (i: Item): Item => ({ ...i, status: 'running', display_status: 'running' });
const archived = (i: Item): Item => ({ ...i, archived: true, display_status: 'archived' });

/** A client holding the lists given, as the board's screens leave them cached. */
function clientWith(lists: Partial<Record<'board' | 'archived', Item[]>>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (lists.board) client.setQueryData(itemsQuery(false).queryKey, lists.board);
  if (lists.archived) client.setQueryData(itemsQuery(true).queryKey, lists.archived);
  return client;
}

const stateOf = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key);

let clients: QueryClient[] = [];
afterEach(() => {
  for (const c of clients) c.clear();
  clients = [];
});
const track = (c: QueryClient) => {
  clients.push(c);
  return c;
};

describe('patchList', () => {
  it('replaces an item in place, keeping the order', () => {
    expect(patchList([a, b], running(a), false)).toEqual([running(a), b]);
  });

  it('takes out an item that left the filter, and leaves a list it was never in alone', () => {
    const board = [a, b];
    expect(patchList(board, archived(a), false)).toEqual([b]);
    expect(patchList(board, archived(anItem({ id: 'cccccccc' })), false)).toBe(board);
  });

  it('asks for a read when the item belongs to the list but the list lacks it', () => {
    expect(patchList([a], b, false)).toBe('refetch');
    expect(patchList([], archived(a), true)).toBe('refetch');
  });
});

describe('putItem', () => {
  it('puts the item in its query and in each cached list, and reads no list again', async () => {
    const client = track(clientWith({ board: [a, b], archived: [] }));
    await putItem(client, running(a));
    expect(client.getQueryData(itemsQuery(false).queryKey)).toEqual([running(a), b]);
    expect(client.getQueryData(itemQuery(a.id).queryKey)).toEqual(running(a));
    expect(stateOf(client, itemsQuery(false).queryKey)?.isInvalidated).toBe(false);
    expect(stateOf(client, itemsQuery(true).queryKey)?.isInvalidated).toBe(false);
  });

  it("refreshes the item's own reads and nothing of another item", async () => {
    const client = track(clientWith({ board: [a, b] }));
    const events = [...itemQuery(a.id).queryKey, 'events', 50];
    const other = [...itemQuery(b.id).queryKey, 'events', 50];
    client.setQueryData(events, { events: [] });
    client.setQueryData(other, { events: [] });
    await putItem(client, running(a));
    expect(stateOf(client, events)?.isInvalidated).toBe(true);
    expect(stateOf(client, other)?.isInvalidated).toBe(false);
  });

  it('moves an archived item out of the board and has the archived list read again', async () => {
    const client = track(clientWith({ board: [a, b], archived: [] }));
    await putItem(client, archived(a));
    expect(client.getQueryData(itemsQuery(false).queryKey)).toEqual([b]);
    expect(stateOf(client, itemsQuery(false).queryKey)?.isInvalidated).toBe(false);
    expect(stateOf(client, itemsQuery(true).queryKey)?.isInvalidated).toBe(true);
  });
});

describe('applyBatch', () => {
  it('reads each touched item once and patches the lists', async () => {
    const client = track(clientWith({ board: [a, b] }));
    const read: string[] = [];
    await applyBatch(client, { touched: new Set([a.id]), created: false, hello: false }, async (id) => {
      read.push(id);
      return running(a);
    });
    expect(read).toEqual([a.id]);
    expect(client.getQueryData(itemsQuery(false).queryKey)).toEqual([running(a), b]);
    expect(stateOf(client, itemsQuery(false).queryKey)?.isInvalidated).toBe(false);
  });

  it('reads the lists again when an item was created, the stream (re)started, or too many changed', async () => {
    const many = new Set(Array.from({ length: PATCH_AT_MOST + 1 }, (_, i) => `item${i}`));
    for (const batch of [
      { touched: new Set([b.id]), created: true, hello: false },
      { touched: new Set<string>(), created: false, hello: true },
      { touched: many, created: false, hello: false },
    ]) {
      const client = track(clientWith({ board: [a] }));
      const read: string[] = [];
      await applyBatch(client, batch, async (id) => {
        read.push(id);
        return a;
      });
      expect(read).toEqual([]);
      expect(stateOf(client, itemsQuery(false).queryKey)?.isInvalidated).toBe(true);
    }
  });

  it('only marks an item stale when nothing shows it', async () => {
    const client = track(clientWith({}));
    const events = [...itemQuery(a.id).queryKey, 'events', 50];
    client.setQueryData(events, { events: [] });
    const read: string[] = [];
    await applyBatch(client, { touched: new Set([a.id]), created: false, hello: false }, async (id) => {
      read.push(id);
      return a;
    });
    expect(read).toEqual([]);
    expect(stateOf(client, events)?.isInvalidated).toBe(true);
  });
});

describe('refreshItem', () => {
  it('reads the lists again when the item cannot be read', async () => {
    const client = track(clientWith({ board: [a] }));
    await refreshItem(client, a.id, () => Promise.reject(new Error('offline')));
    expect(stateOf(client, itemsQuery(false).queryKey)?.isInvalidated).toBe(true);
  });
});
