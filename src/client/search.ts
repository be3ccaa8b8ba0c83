import type { ReindexState, SearchAnswer, SearchKind } from '../contract/search.js';
import { reindex, reindexState, search } from '../contract/routes/search.js';
import type { JigClient } from './http.js';

export function searchIndex(
  c: JigClient,
  q: string,
  limit: number,
  kind?: SearchKind,
): Promise<SearchAnswer> {
  return c.call(search, { query: { q, limit, ...(kind ? { kind } : {}) } });
}

export function startReindex(c: JigClient, repo?: string): Promise<ReindexState> {
  return c.call(reindex, { query: repo ? { repo } : {} });
}

export function reindexProgress(c: JigClient): Promise<ReindexState> {
  return c.call(reindexState);
}
