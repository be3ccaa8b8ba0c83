import { ErrorBodySchema } from '../../error-body.js';
import { z } from 'zod';
import { WorkItem } from '../../items.js';
import { ItemMergeRequest, LabelsAnswer, LabelsBody, MergeRequestsAnswer } from '../../merge-requests.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

export const listItemMergeRequests = defineRoute({
  operationId: 'listItemMergeRequests',
  method: 'GET',
  path: '/api/work-items/:id/merge-requests',
  summary: "The item's merge requests, one per repository, as the forge last answered a forge task",
  tags: ['forge'],
  params: ItemIdParams,
  responses: { 200: MergeRequestsAnswer, 404: ErrorBodySchema },
});

export const setMrLabels = defineRoute({
  operationId: 'setMrLabels',
  method: 'POST',
  path: '/api/work-items/:id/mr-labels',
  summary:
    "Sets the labels of the item's merge request on the forge (the whole set), for a person or the item's worker",
  tags: ['forge'],
  params: ItemIdParams,
  body: LabelsBody,
  responses: { 200: LabelsAnswer, ...itemErrors, 502: ErrorBodySchema },
});

export const ReopenAnswer = z.object({
  merge_request: ItemMergeRequest,
  item: WorkItem.describe('the item after its retry: running, or queued for a slot'),
});

export const reopenMr = defineRoute({
  operationId: 'reopenMr',
  method: 'POST',
  path: '/api/work-items/:id/reopen-mr',
  summary:
    "Reopens the item's merge request closed on the forge without merging, then retries the node it stopped on",
  tags: ['forge'],
  params: ItemIdParams,
  responses: { 200: ReopenAnswer, 403: ErrorBodySchema, ...itemErrors, 502: ErrorBodySchema },
});
