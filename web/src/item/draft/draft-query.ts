import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Item } from '../../api.js';
import { itemDraftQuery } from '../../queries.js';

const ENDED = ['completed', 'cancelled', 'abandoned'];

/**
 * Whether the item has a draft to read: the server answers one only once the item has started (its
 * chain is frozen then) and until it ends.
 */
export const canDraft = (item: Item) => item.started_at !== null && !ENDED.includes(item.status);

/**
 * The draft, read again each time the item comes to rest somewhere new (paused, at a gate,
 * stopped: states that last until someone acts) and after every save, apply or refusal. Not on a
 * running item's moves: its last node can end the item before the read arrives, and the draft of
 * an ended item is refused (409); an apply checks the ops the item has passed itself.
 */
export function useItemDraft(item: Item) {
  const client = useQueryClient();
  const query = itemDraftQuery(item);
  const rest = item.status === 'running' ? null : `${item.status} ${item.current_node ?? ''}`;
  const seen = useRef(rest);
  const draftable = canDraft(item);
  useEffect(() => {
    if (rest === seen.current) return;
    seen.current = rest;
    if (rest !== null && draftable) void client.invalidateQueries({ queryKey: query.queryKey });
  }, [rest, draftable, client, query.queryKey]);
  return useQuery({ ...query, enabled: draftable });
}
