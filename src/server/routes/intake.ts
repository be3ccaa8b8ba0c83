import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IntakeAnswer } from '../../contract/intake-route.js';
import type { Instance } from '../../runtime/instance.js';

export function intakeRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/intake',
      {
        schema: {
          summary: 'The running intake settings, and every schedule with its next firing and problems',
          description:
            'Schedules from intake.yaml (`source: intake`) and 1.x triggers left in policy.yaml ' +
            '(`source: policy.triggers`). `next_fire_at` is null for an entry that never fires or would ' +
            'be skipped now; `problems` says why.',
          tags: ['intake'],
          response: { 200: IntakeAnswer },
        },
      },
      async () => inst.schedules.view(inst.repos, inst.config),
    );
  };
}
