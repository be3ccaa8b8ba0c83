import { z } from 'zod';
import { POLICY_LEVELS } from '../config/policy.js';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';

/*
 * `GET /api/drafts/policy/{key}/preview?chain=` (spec drafts.md, "Reading drafts"): the caps every
 * scope of one chain runs under with the policy draft laid over the published policy.yaml.
 */

const CapValue = z.object({
  value: z.number().nullable().describe('what the scope runs under; null when no layer sets one'),
  source: z.string().describe('chain, library:<section>.<name>, policy or default'),
  maximum: z
    .object({
      value: z.number(),
      level: z
        .string()
        .describe('maxima.<level>, or the enclosing scope whose value bounds it (chain: the chain)'),
    })
    .nullable()
    .describe('the bound; null for none'),
  exceeds: z.boolean().describe('whether value is past maximum'),
});

export const PreviewScope = z.object({
  path: z.string().describe("canonical path; the chain's id for the chain itself"),
  kind: z.enum(['chain', 'node', 'step', 'task']),
  level: z.enum(POLICY_LEVELS).describe('the policy level whose caps it reads'),
  caps: z.object({
    time_cap_minutes: CapValue,
    total_time_cap_minutes: CapValue,
    token_budget: CapValue,
    budget_usd: CapValue,
  }),
});

export const PolicyPreviewAnswer = z.object({
  chain: z.string(),
  scopes: z.array(PreviewScope).describe('the chain, then every node, step and task (a gate has none)'),
});

export const PolicyPreviewParams = z.object({
  key: z.string().min(1).describe('must be `policy`'),
});
export const PolicyPreviewQuery = z.object({
  chain: z.string().optional().describe('chain id (required: 422 when missing)'),
});

export const policyPreview = defineRoute({
  operationId: 'policyPreview',
  method: 'GET',
  path: '/api/drafts/policy/:key/preview',
  summary:
    'Caps of every scope of `chain` under the policy draft (the published policy.yaml when none); 400 key not `policy`, 404 chain not in the library, 422 no chain / policy.yaml does not load / chain does not resolve, 503 library does not load',
  tags: ['drafts'],
  params: PolicyPreviewParams,
  query: PolicyPreviewQuery,
  responses: {
    200: PolicyPreviewAnswer,
    400: ErrorBodySchema,
    404: ErrorBodySchema,
    422: ErrorBodySchema,
    503: ErrorBodySchema,
  },
});
