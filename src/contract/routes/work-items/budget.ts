import { z } from 'zod';
import { WorkItem } from '../../items.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

export const RaiseBudgetBody = z.object({ cap_usd: z.number().finite().min(0) }).strict();

export const raiseBudget = defineRoute({
  operationId: 'raiseBudget',
  method: 'POST',
  path: '/api/work-items/:id/budget/raise',
  summary:
    "Raise the item's own dollar cap above what it has spent; an item stopped on its budget runs again",
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: RaiseBudgetBody,
  responses: { 200: WorkItem, ...itemErrors },
});
