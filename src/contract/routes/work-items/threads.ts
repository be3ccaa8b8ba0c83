import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { defineRoute } from '../../route.js';
import {
  FixTarget,
  ReviewAnswer,
  ReviewBody,
  ReviewThread,
  ThreadBody,
  ThreadsAnswer,
  ThreadsQuery,
} from '../../threads.js';
import { GateParams, ItemIdParams, itemErrors } from './params.js';

const ThreadParams = ItemIdParams.extend({ thread: z.string().min(1).max(64) });
const withWorker = { ...itemErrors, 403: ErrorBodySchema } as const;

export const listItemThreads = defineRoute({
  operationId: 'listItemThreads',
  method: 'GET',
  path: '/api/work-items/:id/threads',
  summary: "The item's review threads with their comments, and where their lines are now",
  tags: ['review'],
  params: ItemIdParams,
  query: ThreadsQuery,
  responses: { 200: ThreadsAnswer, 404: ErrorBodySchema },
});

export const postThread = defineRoute({
  operationId: 'postThread',
  method: 'POST',
  path: '/api/work-items/:id/threads',
  summary:
    'Open a review thread (in a file, on lines, with a label or a suggestion), or reply to one with thread_id',
  tags: ['review'],
  params: ItemIdParams,
  body: ThreadBody,
  responses: { 201: ReviewThread, ...withWorker },
});

export const resolveThread = defineRoute({
  operationId: 'resolveThread',
  method: 'POST',
  path: '/api/work-items/:id/threads/:thread/resolve',
  summary: 'Resolve a review thread',
  tags: ['review'],
  params: ThreadParams,
  responses: { 200: ReviewThread, ...withWorker },
});

export const reopenThread = defineRoute({
  operationId: 'reopenThread',
  method: 'POST',
  path: '/api/work-items/:id/threads/:thread/reopen',
  summary: 'Reopen a resolved review thread',
  tags: ['review'],
  params: ThreadParams,
  responses: { 200: ReviewThread, ...withWorker },
});

export const getFixTarget = defineRoute({
  operationId: 'getFixTarget',
  method: 'GET',
  path: '/api/work-items/:id/fix-target',
  summary: 'Which node a request for changes would rerun, and which fix round it would be',
  tags: ['review'],
  params: ItemIdParams,
  query: z.object({ node: z.string().min(1).max(64).optional() }).strict(),
  responses: { 200: FixTarget, 404: ErrorBodySchema },
});

export const submitReview = defineRoute({
  operationId: 'submitReview',
  method: 'POST',
  path: '/api/work-items/:id/review',
  summary:
    'Submit a review: approve (passes the gate it waits at), request_changes (reruns the fix target with the open threads), comment',
  tags: ['review'],
  params: ItemIdParams,
  body: ReviewBody,
  responses: { 200: ReviewAnswer, ...withWorker },
});

export const submitGateReview = defineRoute({
  operationId: 'submitGateReview',
  method: 'POST',
  path: '/api/work-items/:id/gates/:gate/review',
  summary: 'Submit a review for the named gate (it must be the one waiting)',
  tags: ['review'],
  params: GateParams,
  body: ReviewBody,
  responses: { 200: ReviewAnswer, ...withWorker },
});
