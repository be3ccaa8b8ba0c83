import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { PolicyGetAnswer, PolicyPutAnswer, PolicyPutBody } from '../policy-route.js';
import { ProblemSchema } from '../reload.js';
import { defineRoute } from '../route.js';

export const PolicyRefused = ErrorBodySchema.extend({ problems: z.array(ProblemSchema).optional() });
/** A save refused because policy.yaml changed since it was read: the file's ETag now. */
export const PolicyChanged = ErrorBodySchema.extend({ etag: z.string() });

export const PolicyPutHeaders = z.object({
  'if-match': z
    .string()
    .optional()
    .describe('the ETag GET answered: the save is refused (409) if the file changed since'),
});

export const getPolicy = defineRoute({
  operationId: 'getPolicy',
  method: 'GET',
  path: '/api/policy',
  summary: 'policy.yaml as on disk, with max_concurrent as running and active_count (items running now)',
  tags: ['settings'],
  responses: { 200: PolicyGetAnswer },
});

export const putPolicy = defineRoute({
  operationId: 'putPolicy',
  method: 'PUT',
  path: '/api/policy',
  summary:
    'Save policy.yaml (body merged over the file key by key; null removes a key) and apply it; answers the saved file',
  tags: ['settings'],
  body: PolicyPutBody,
  headers: PolicyPutHeaders,
  responses: { 200: PolicyPutAnswer, 409: PolicyChanged, 422: PolicyRefused },
});
