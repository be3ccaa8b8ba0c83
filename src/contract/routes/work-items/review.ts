import { CompareQuery, DiffQuery, ItemCommits, ItemDiff, ViewedAnswer, ViewedBody } from '../../review.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

export const itemDiff = defineRoute({
  operationId: 'itemDiff',
  method: 'GET',
  path: '/api/work-items/:id/diff',
  summary: "The item's changes against its base, uncommitted work included, one page of files",
  tags: ['review'],
  params: ItemIdParams,
  query: DiffQuery,
  responses: { 200: ItemDiff, ...itemErrors },
});

export const itemCompare = defineRoute({
  operationId: 'itemCompare',
  method: 'GET',
  path: '/api/work-items/:id/compare',
  summary:
    'Diff two review targets (base, attempt:N, last_review, latest), optionally only what chosen nodes changed',
  tags: ['review'],
  params: ItemIdParams,
  query: CompareQuery,
  responses: { 200: ItemDiff, ...itemErrors },
});

export const markViewed = defineRoute({
  operationId: 'markViewed',
  method: 'PUT',
  path: '/api/work-items/:id/viewed',
  summary: 'Mark a changed file viewed as it is now (a later change to it clears the mark)',
  tags: ['review'],
  params: ItemIdParams,
  body: ViewedBody,
  responses: { 200: ViewedAnswer, ...itemErrors },
});

export const clearViewedMark = defineRoute({
  operationId: 'clearViewedMark',
  method: 'DELETE',
  path: '/api/work-items/:id/viewed',
  summary: "Clear a file's viewed mark",
  tags: ['review'],
  params: ItemIdParams,
  body: ViewedBody,
  responses: { 200: ViewedAnswer, ...itemErrors },
});

export const itemCommits = defineRoute({
  operationId: 'itemCommits',
  method: 'GET',
  path: '/api/work-items/:id/commits',
  summary:
    "Where the item's change is: its branch, the commits on it past its base (subject, short sha) and whether the base has them",
  tags: ['review'],
  params: ItemIdParams,
  responses: { 200: ItemCommits, ...itemErrors },
});
