import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { ItemDraftAnswer, ItemDraftProblem, PutItemDraftBody } from '../../items/draft.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams } from './params.js';

/*
 * A work item's own chain draft (spec drafts.md "Item drafts"). Every route refuses a worker's own
 * item (403), an unknown item (404) and an ended item (409); GET, PUT and apply also refuse an item
 * with no materialized chain (409; a PUT has stored its ops by then).
 */

const refusals = { 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema } as const;

/** 409 on apply when the item moved past some of the draft's ops. */
export const PassedOpsBody = ErrorBodySchema.extend({
  passed: z.array(z.number().int()).describe('indexes of the ops the item has gone past'),
});

/** 422 on apply when an op has a problem. */
export const DraftProblemsBody = ErrorBodySchema.extend({ problems: z.array(ItemDraftProblem) });

export const getItemDraft = defineRoute({
  operationId: 'getItemDraft',
  method: 'GET',
  path: '/api/work-items/:id/draft',
  summary: "The item's chain draft with passed marks, problems, checks and the chain it makes",
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 200: ItemDraftAnswer, ...refusals },
});

export const putItemDraft = defineRoute({
  operationId: 'putItemDraft',
  method: 'PUT',
  path: '/api/work-items/:id/draft',
  summary: "Replace the item's chain draft with this op list (an empty list deletes it)",
  tags: ['work items'],
  params: ItemIdParams,
  body: PutItemDraftBody,
  responses: { 200: ItemDraftAnswer, ...refusals, 422: ErrorBodySchema },
});

export const deleteItemDraft = defineRoute({
  operationId: 'deleteItemDraft',
  method: 'DELETE',
  path: '/api/work-items/:id/draft',
  summary: "Discard the item's chain draft",
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 204: z.null().describe('no body'), ...refusals },
});

export const applyItemDraft = defineRoute({
  operationId: 'applyItemDraft',
  method: 'POST',
  path: '/api/work-items/:id/draft/apply',
  summary:
    "Apply every op of the item's chain draft at once; a running item takes the revised chain at its next node boundary",
  tags: ['work items'],
  params: ItemIdParams,
  responses: {
    200: ItemDraftAnswer,
    403: ErrorBodySchema,
    404: ErrorBodySchema,
    409: z.union([PassedOpsBody, ErrorBodySchema]),
    422: z.union([DraftProblemsBody, ErrorBodySchema]),
  },
});
