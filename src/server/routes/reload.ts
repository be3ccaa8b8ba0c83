import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { JigError } from '../../contract/errors.js';
import { ReloadAnswer } from '../../contract/reload.js';
import type { Instance } from '../../runtime/instance.js';

const Refused = ReloadAnswer.extend({ detail: z.string(), code: z.literal('config_refused') });
// A 422 is also what a body the parser refuses gets (nested too deep), before this route runs: the
// schema must let that answer through too, or serialising it fails into a 500.
const Unprocessable = z.union([Refused, ErrorBodySchema]);

export function reloadRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/api/apply/reload', '/api/templates/reload']) {
      app.post(
        url,
        {
          schema: {
            summary: 'Reread library, chains, policy and intake; answer what loaded and what was refused',
            tags: ['config'],
            response: { 200: ReloadAnswer, 422: Unprocessable },
          },
        },
        async (req, reply) => {
          const answer = inst.config.reload();
          for (const r of answer.refused)
            req.log.warn({ file: r.file, problems: r.problems }, 'config file refused');
          if (answer.refused.length === 0) return answer;
          const err = new JigError('config_refused', { files: answer.refused.map((r) => r.file).join(', ') });
          return reply.code(422).send({ ...answer, detail: err.message, code: 'config_refused' as const });
        },
      );
    }
  };
}
