import { z } from 'zod';
import { defineRoute } from '../route.js';

export const BudgetToday = z.object({
  since: z.string(),
  spent_usd: z.number(),
  cap_usd: z.number().nullable(),
  remaining_usd: z.number().nullable(),
  unpriced_sessions: z.number().int(),
});
export type BudgetToday = z.infer<typeof BudgetToday>;

export const budgetToday = defineRoute({
  operationId: 'budgetToday',
  method: 'GET',
  path: '/api/budget/today',
  summary: 'Spend since local midnight against the daily cap',
  tags: ['budget'],
  responses: { 200: BudgetToday },
});
