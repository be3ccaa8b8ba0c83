import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ProfilesAnswer } from '../../contract/templates.js';
import { TemplatesService } from '../../runtime/config/templates-service.js';
import type { Instance } from '../../runtime/instance.js';

export function harnessRoutes(inst: Instance): FastifyPluginAsyncZod {
  const svc = new TemplatesService(inst.paths.configDir, inst.config, (path) => inst.repos.find(path));
  return async (app) => {
    app.get(
      '/api/harnesses/profiles',
      {
        schema: {
          summary:
            'Harness entries and agent profiles from harnesses.yaml, each profile with its model and effort per provider',
          tags: ['harnesses'],
          response: { 200: ProfilesAnswer },
        },
      },
      async () => svc.profiles(),
    );
  };
}
