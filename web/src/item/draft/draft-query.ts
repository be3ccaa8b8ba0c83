import { useQuery } from '@tanstack/react-query';
import type { Item } from '../../api.js';
import { itemDraftQuery } from '../../queries.js';

const ENDED = ['completed', 'cancelled', 'abandoned'];

/**
 * Whether the item has a draft to read: the server answers one only once the item has started (its
 * chain is frozen then) and until it ends.
 */
export const canDraft = (item: Item) => item.started_at !== null && !ENDED.includes(item.status);

export function useItemDraft(item: Item) {
  return useQuery({ ...itemDraftQuery(item), enabled: canDraft(item) });
}
