import type { QueryClient } from '@tanstack/react-query';
import { callRoute, routes, type Item } from '../api.js';
import { putItem } from '../item-cache.js';

/*
 * The moves a person makes on one item from its page or the peek, each through its own route. Each
 * answers the item as it now is, which is put in place in the cache (item-cache.ts): the lists are
 * not read again for a move.
 */

export type Move = 'resume' | 'pause' | 'retry' | 'archive' | 'reopen-mr' | 'unblock';

async function send(id: string, move: Move): Promise<Item> {
  const params = { id };
  switch (move) {
    case 'unblock':
      // Answers what it dropped; the item is read as it now is.
      await callRoute(routes.unblockItem, { params });
      return callRoute(routes.getItem, { params });
    case 'resume':
      return callRoute(routes.resumeItem, { params });
    case 'pause':
      return callRoute(routes.pauseItem, { params });
    case 'retry':
      return callRoute(routes.retryItem, { params });
    case 'archive':
      return callRoute(routes.archiveItem, { params });
    case 'reopen-mr':
      return (await callRoute(routes.reopenMr, { params })).item;
  }
}

/** Makes the move and puts the item it answers in place. */
export async function makeMove(client: QueryClient, id: string, move: Move): Promise<void> {
  await putItem(client, await send(id, move));
}

/** The moves the item page offers, each when the item's state allows it. */
export const MOVES: { move: Move; label: string; when: (i: Item) => boolean }[] = [
  {
    move: 'resume',
    label: 'Resume',
    when: (i) => i.status === 'paused',
  },
  {
    move: 'pause',
    label: 'Pause',
    when: (i) => ['running', 'queued', 'waiting', 'blocked'].includes(i.status),
  },
  {
    move: 'unblock',
    label: 'Unblock',
    when: (i) => i.status === 'blocked',
  },
  {
    move: 'reopen-mr',
    label: 'Reopen merge request',
    when: (i) => i.status === 'stopped' && i.stop?.kind === 'mr_closed',
  },
  {
    move: 'retry',
    label: 'Retry',
    when: (i) => i.status === 'stopped' && i.stop?.kind !== 'gate' && i.stop?.kind !== 'mr_closed',
  },
  {
    move: 'archive',
    label: 'Archive',
    when: (i) => ['completed', 'cancelled', 'abandoned'].includes(i.status) && !i.archived,
  },
];

/** The one move the peek offers for the item's state; a gate goes to the full page to be read. */
export function mainMove(item: Item): { move: Move; label: string } | null {
  if (item.status === 'paused')
    return { move: 'resume', label: item.started_at === null ? 'Start' : 'Resume' };
  if (item.status === 'blocked') return { move: 'unblock', label: 'Unblock' };
  if (item.status === 'running' || item.status === 'queued') return { move: 'pause', label: 'Pause' };
  if (item.status === 'stopped' && item.stop?.kind !== 'gate' && item.stop?.kind !== 'rate_limit')
    return { move: 'retry', label: 'Retry' };
  if (['completed', 'cancelled', 'abandoned'].includes(item.status) && !item.archived)
    return { move: 'archive', label: 'Archive' };
  return null;
}
