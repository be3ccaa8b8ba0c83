import { z } from 'zod';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

export const ProgressBody = z.object({ task: z.string().trim().min(1).max(500) }).strict();
export const ProgressAnswer = z.object({ work_item_id: z.string(), task: z.string(), seq: z.number().int() });

export const recordProgress = defineRoute({
  operationId: 'recordProgress',
  method: 'POST',
  path: '/api/work-items/:id/progress',
  summary: 'Record that a worker started a task of the plan (plan_progress)',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: ProgressBody,
  responses: { 200: ProgressAnswer, ...itemErrors },
});
