import { z } from 'zod';
import { SEARCH_KINDS } from './item-names.js';

/* `GET /api/search` and the rescan (docs/search.md). */

export { SEARCH_KINDS };
export const SearchKind = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKind>;

export const SearchQuery = z.object({
  q: z.string().min(1).max(500).describe('words to look for; the last one also matches as a prefix'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  kind: SearchKind.optional().describe('only hits of this kind'),
});

export const SearchHit = z.object({
  kind: SearchKind,
  ref: z
    .string()
    .describe(
      'what it is: an item id, an event seq, a thread id, a document path, an issue, a chain id, a library kind:name',
    ),
  work_item_id: z.string().nullable(),
  repo: z.string().nullable(),
  title: z.string(),
  snippet: z.string().describe('the best-matching passage, matched words between « and »'),
  score: z.number().describe('higher is better (BM25, title weighted ten times the body)'),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchAnswer = z.object({ results: z.array(SearchHit).describe('best first') });
export type SearchAnswer = z.infer<typeof SearchAnswer>;

export const ReindexQuery = z.object({
  repo: z.string().min(1).optional().describe('rescan the items of this connected repository only'),
});

export const ReindexState = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  repo: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  items_done: z.number().int(),
  items_total: z.number().int(),
  error: z.string().nullable(),
});
export type ReindexState = z.infer<typeof ReindexState>;
