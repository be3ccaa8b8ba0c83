import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';
import { ReindexQuery, ReindexState, SearchAnswer, SearchQuery } from '../search.js';

export const search = defineRoute({
  operationId: 'search',
  method: 'GET',
  path: '/api/search',
  summary:
    'Full-text search over items, events, review threads, documents, attachments, issues, chains and the library',
  description:
    'Every word must match (the last also as a prefix; "running" finds "run"); best first, by ' +
    'BM25 with the title weighted ten times the body, each hit with its best passage. 422 names ' +
    '`q` when it holds no word.',
  tags: ['search'],
  query: SearchQuery,
  responses: { 200: SearchAnswer, 422: ErrorBodySchema },
});

export const reindex = defineRoute({
  operationId: 'reindex',
  method: 'POST',
  path: '/api/search/reindex',
  summary: 'Rebuild the search index in the background (one repository’s items with `repo`)',
  description:
    'Answers 202 with the rescan’s state at once; asking while one runs answers that one. ' +
    '`GET /api/search/reindex` follows its progress; health’s `index` shows the last one. 404 ' +
    '`repo_unknown` for a repository that is not connected.',
  tags: ['search'],
  query: ReindexQuery,
  responses: { 202: ReindexState, 404: ErrorBodySchema, 422: ErrorBodySchema },
});

export const reindexState = defineRoute({
  operationId: 'reindexState',
  method: 'GET',
  path: '/api/search/reindex',
  summary: 'The search rescan’s progress: items done of total, state, error',
  tags: ['search'],
  responses: { 200: ReindexState },
});
