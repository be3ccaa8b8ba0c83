import { ErrorBodySchema } from '../../error-body.js';
import { MergeRequestsAnswer } from '../../merge-requests.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams } from './params.js';

export const listItemMergeRequests = defineRoute({
  method: 'GET',
  path: '/api/work-items/:id/merge-requests',
  summary: "The item's merge requests, one per repository, as the forge last answered a forge task",
  tags: ['forge'],
  params: ItemIdParams,
  responses: { 200: MergeRequestsAnswer, 404: ErrorBodySchema },
});
