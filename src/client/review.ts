import type { ItemDiff } from '../contract/review.js';
import { itemCompare } from '../contract/routes/work-items/review.js';
import type { JigClient } from './http.js';

export interface CompareArgs {
  from?: string | undefined;
  to?: string | undefined;
  nodes?: string | undefined;
  format?: 'patch' | 'stat' | 'name_only' | undefined;
  ignoreWhitespace?: boolean | undefined;
}

/**
 * Every page of a compare (`base`..`latest` is the item's diff), as one answer: the files of all
 * pages in order, `next_offset` null. `onPage` sees each page as it arrives (a long diff prints
 * while the rest loads).
 */
export async function compareAll(
  c: JigClient,
  id: string,
  a: CompareArgs,
  onPage?: (page: ItemDiff) => void,
): Promise<ItemDiff> {
  let offset = 0;
  let whole: ItemDiff | null = null;
  for (;;) {
    const page = await c.call(itemCompare, {
      params: { id },
      query: {
        ...(a.from ? { from: a.from } : {}),
        ...(a.to ? { to: a.to } : {}),
        ...(a.nodes ? { nodes: a.nodes } : {}),
        ...(a.format ? { format: a.format } : {}),
        ...(a.ignoreWhitespace ? { ignore_whitespace: '1' as const } : {}),
        offset,
      },
    });
    onPage?.(page);
    const joined: ItemDiff = whole ? { ...whole, files: [...whole.files, ...page.files] } : page;
    if (page.next_offset === null) return { ...joined, next_offset: null };
    whole = joined;
    offset = page.next_offset;
  }
}
