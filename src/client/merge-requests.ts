import type { ItemMergeRequest } from '../contract/merge-requests.js';
import { reopenMr, setMrLabels } from '../contract/routes/work-items/merge-requests.js';
import type { JigClient } from './http.js';

/** Sets the labels of an item's merge request (the whole set). */
export async function labelMergeRequest(
  c: JigClient,
  item: string,
  labels: string[],
): Promise<ItemMergeRequest> {
  return (await c.call(setMrLabels, { params: { id: item }, body: { labels } })).merge_request;
}

/** Reopens an item's merge request closed without merging; the item is retried. */
export async function reopenMergeRequest(c: JigClient, item: string) {
  return c.call(reopenMr, { params: { id: item } });
}
