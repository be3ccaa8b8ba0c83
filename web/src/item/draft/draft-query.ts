import { useQuery } from '@tanstack/react-query';
import type { ItemDraftAnswer } from '../../../../src/contract/items/draft.js';
import { get, type Item } from '../../api.js';

/**
 * Keyed by the item's state as well, so a move refetches it, but not under the item's own key: a
 * refetch racing the item's end would be refused (409) as an ended item has no draft.
 */
export const draftKey = (item: Item) => ['item-draft', item.id, item.status, item.current_node] as const;
export const anyDraftKey = (id: string) => ['item-draft', id] as const;

export const draftPath = (id: string) => `/api/work-items/${encodeURIComponent(id)}/draft`;

const ENDED = ['completed', 'cancelled', 'abandoned'];

/**
 * Whether the item has a draft to read: the server answers one only once the item has started (its
 * chain is frozen then) and until it ends.
 */
export const canDraft = (item: Item) => item.started_at !== null && !ENDED.includes(item.status);

export const fetchDraft = (id: string) => get<ItemDraftAnswer>(draftPath(id));

export function useItemDraft(item: Item) {
  return useQuery({
    queryKey: draftKey(item),
    queryFn: () => fetchDraft(item.id),
    enabled: canDraft(item),
  });
}
