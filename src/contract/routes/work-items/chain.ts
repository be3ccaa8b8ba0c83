import { z } from 'zod';
import { ModelNode } from '../../config/chain-model.js';
import { ErrorBodySchema } from '../../error-body.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams } from './params.js';

export const ItemChainAnswer = z.object({
  chain: z.string(),
  source: z
    .enum(['item', 'template'])
    .describe(
      "`item`: the chain the item froze at its start (with its applied drafts); `template`: the chain file's, before the start",
    ),
  nodes: z.array(ModelNode),
});
export type ItemChainAnswer = z.infer<typeof ItemChainAnswer>;

export const getItemChain = defineRoute({
  operationId: 'getItemChain',
  method: 'GET',
  path: '/api/work-items/:id/chain',
  summary: 'The chain an item runs: its own once started, else its chain file resolved',
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 200: ItemChainAnswer, 404: ErrorBodySchema, 422: ErrorBodySchema },
});
