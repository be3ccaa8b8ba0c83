import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { PolicyGetAnswer, PolicyPutAnswer, PolicyPutBody } from '../../contract/policy-route.js';
import { ProblemSchema } from '../../contract/reload.js';
import { PolicySettings } from '../../runtime/config/policy-settings.js';
import type { Instance } from '../../runtime/instance.js';

const Refused = ErrorBodySchema.extend({ problems: z.array(ProblemSchema).optional() });

export function policyRoutes(inst: Instance): FastifyPluginAsyncZod {
  const svc = new PolicySettings(inst.paths.configDir, inst.config, inst.store);
  return async (app) => {
    app.get(
      '/api/policy',
      {
        schema: {
          summary:
            'policy.yaml as on disk, with max_concurrent as running and active_count (items running now)',
          tags: ['settings'],
          response: { 200: PolicyGetAnswer },
        },
      },
      async (_req, reply) => {
        const { answer, etag } = await svc.get();
        return reply.header('etag', etag).send(answer);
      },
    );
    app.put(
      '/api/policy',
      {
        schema: {
          summary:
            'Save policy.yaml (body merged over the file key by key; null removes a key) and apply it; answers the saved file',
          tags: ['settings'],
          body: PolicyPutBody,
          headers: z.object({
            'if-match': z
              .string()
              .optional()
              .describe('the ETag GET answered: the save is refused (409) if the file changed since'),
          }),
          response: { 200: PolicyPutAnswer, 409: ErrorBodySchema.extend({ etag: z.string() }), 422: Refused },
        },
      },
      async (req, reply) => {
        const { saved, etag } = svc.put(req.body, req.headers['if-match']);
        req.log.info({ keys: Object.keys(req.body) }, 'policy.yaml saved and applied');
        return reply.header('etag', etag).send(saved);
      },
    );
  };
}
