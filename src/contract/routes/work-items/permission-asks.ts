import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import {
  AnswerBody,
  AskBody,
  AsksAnswer,
  AsksQuery,
  CheckAnswer,
  CheckBody,
  PermissionAsk,
} from '../../permission-asks.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

const AskParams = ItemIdParams.extend({ ask: z.string().min(1).max(64) });
const withWorker = { ...itemErrors, 403: ErrorBodySchema } as const;

export const createAsk = defineRoute({
  operationId: 'createAsk',
  method: 'POST',
  path: '/api/work-items/:id/permission-asks',
  summary: "A worker asks to use a tool its launch neither granted nor denied (the item's worker only)",
  tags: ['permissions'],
  params: ItemIdParams,
  body: AskBody,
  responses: { 201: PermissionAsk, ...withWorker },
});

export const listItemAsks = defineRoute({
  operationId: 'listItemAsks',
  method: 'GET',
  path: '/api/work-items/:id/permission-asks',
  summary: "The item's permission asks, oldest first (pending ones past their time count as expired)",
  tags: ['permissions'],
  params: ItemIdParams,
  query: AsksQuery,
  responses: { 200: AsksAnswer, 404: ErrorBodySchema },
});

export const listAllAsks = defineRoute({
  operationId: 'listAllAsks',
  method: 'GET',
  path: '/api/permission-asks',
  summary: 'Permission asks of every item (state=pending: what waits for a person now)',
  tags: ['permissions'],
  query: AsksQuery,
  responses: { 200: AsksAnswer },
});

export const getAskRoute = defineRoute({
  operationId: 'getAsk',
  method: 'GET',
  path: '/api/work-items/:id/permission-asks/:ask',
  summary:
    'One permission ask; with wait=S the answer is held until it is decided or S seconds pass (at most 20)',
  tags: ['permissions'],
  params: AskParams,
  query: z.object({ wait: z.coerce.number().min(0).max(20).optional() }).strict(),
  responses: { 200: PermissionAsk, 404: ErrorBodySchema },
});

export const answerAsk = defineRoute({
  operationId: 'answerAsk',
  method: 'POST',
  path: '/api/work-items/:id/permission-asks/:ask/answer',
  summary: 'Allow or deny a pending permission ask (a person; the note reaches the agent with a denial)',
  tags: ['permissions'],
  params: AskParams,
  body: AnswerBody,
  responses: { 200: PermissionAsk, ...withWorker },
});

export const checkToolCall = defineRoute({
  operationId: 'checkToolCall',
  method: 'POST',
  path: '/api/work-items/:id/permission-check',
  summary:
    "A CLI's pre-tool hook asks the permission gate about one tool call (the item's worker only); a call a person must decide opens a permission ask",
  tags: ['permissions'],
  params: ItemIdParams,
  body: CheckBody,
  responses: { 200: CheckAnswer, ...withWorker },
});
