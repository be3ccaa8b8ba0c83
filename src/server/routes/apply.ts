import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApplyAnswer, RESTART_EXIT_CODE, RestartAnswer } from '../../contract/apply.js';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { JigError } from '../../contract/errors.js';
import { applyState } from '../../runtime/config/apply-state.js';
import type { Instance } from '../../runtime/instance.js';
import { installedVersion } from '../../runtime/package-root.js';

export function applyRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/apply',
      {
        schema: {
          summary:
            'What is saved on disk but not running yet: changed config files, and whether a restart is needed',
          tags: ['config'],
          response: { 200: ApplyAnswer },
        },
      },
      async () =>
        applyState(inst.paths.configDir, inst.config, {
          version: inst.version,
          installed: installedVersion(),
          supervised: inst.supervised,
        }),
    );
    app.post(
      '/api/apply/restart',
      {
        schema: {
          summary:
            'Restart a server a service manager started: answers 202, stops cleanly and exits non-zero so the manager starts it again',
          tags: ['config'],
          response: { 202: RestartAnswer, 409: ErrorBodySchema },
        },
        // After the answer has gone out: the process stops as on SIGTERM and exits non-zero.
        onResponse: async (_req, reply) => {
          if (reply.statusCode === 202) inst.requestRestart?.(RESTART_EXIT_CODE);
        },
      },
      async (req, reply) => {
        if (!inst.supervised) {
          throw new JigError('not_supervised', {
            reason:
              'no service manager started this server (systemd sets INVOCATION_ID; under another manager set JIG_SUPERVISED=1), so nothing would start it again; restart it yourself',
          });
        }
        if (!inst.requestRestart) {
          throw new JigError('not_supervised', {
            reason: 'this server runs inside another program, which owns its process; restart that program',
          });
        }
        req.log.warn(
          { exit_code: RESTART_EXIT_CODE },
          'restart asked: stopping, then exiting for the service manager',
        );
        return reply.code(202).send({
          restarting: true,
          exit_code: RESTART_EXIT_CODE,
          detail: `stopping; the process exits with ${RESTART_EXIT_CODE} and the service manager starts it again`,
        });
      },
    );
  };
}
