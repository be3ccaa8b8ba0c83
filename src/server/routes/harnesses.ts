import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ProfilesAnswer } from '../../contract/templates.js';
import { TemplatesService } from '../../runtime/config/templates-service.js';
import type { Instance } from '../../runtime/instance.js';
import { readConfigText } from '../../runtime/config/config-dir.js';
import { HarnessesAnswer, ProvidersAnswer } from '../../contract/harnesses-route.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { HarnessCatalog } from '../../runtime/harness/catalog.js';
import { executableVersion, resolveExecutable } from '../../runtime/harness/installed.js';

export function harnessRoutes(inst: Instance): FastifyPluginAsyncZod {
  const svc = new TemplatesService(inst.paths.configDir, inst.config, (path) => inst.repos.find(path));
  const catalog = new HarnessCatalog(inst.paths.configDir);
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

    app.get(
      '/api/harnesses',
      {
        schema: {
          summary:
            'Each harness of harnesses.yaml: its provider, whether its CLI is installed here, and its version',
          tags: ['harnesses'],
          response: { 200: HarnessesAnswer },
        },
      },
      async () => {
        // No file: no harnesses, said as such below.
        const load = loadHarnesses(readConfigText(inst.paths.configDir, 'harnesses.yaml'));
        const providers = catalog.providers().providers;
        const harnesses = await Promise.all(
          Object.entries(load.model?.harnesses ?? {}).map(async ([id, h]) => {
            const def = providers[h.provider];
            const executable = h.executable ?? def?.command[0] ?? h.provider;
            const path = resolveExecutable(executable);
            const v = def?.verified_with;
            return {
              id,
              provider: h.provider,
              enabled: h.enabled,
              executable,
              path,
              installed: path !== null,
              version: path ? await executableVersion(path) : null,
              verified_with: v ? `${v.package}@${v.version}` : null,
            };
          }),
        );
        return { harnesses, problems: load.problems };
      },
    );

    app.get(
      '/api/harnesses/providers',
      {
        schema: {
          summary:
            'Each provider (agent CLI) Jig knows and what it can take: system prompt, model, tools, resume',
          tags: ['harnesses'],
          response: { 200: ProvidersAnswer },
        },
      },
      async () => {
        const load = catalog.providers();
        return {
          providers: Object.values(load.providers)
            .sort((a, b) => a.id.localeCompare(b.id))
            .map((d) => ({
              id: d.id,
              display_name: d.display_name,
              command: d.command,
              capabilities: {
                system_prompt:
                  d.capabilities.context.channel === 'system_prompt'
                    ? ('flag' as const)
                    : ('inline' as const),
                model: d.capabilities.model !== undefined,
                effort: d.capabilities.effort !== undefined,
                permission_mode: d.capabilities.permission_mode !== undefined,
                allowed_tools: d.capabilities.allowed_tools !== undefined,
                denied_tools: d.capabilities.deny_tools !== undefined,
                resume: d.capabilities.resume !== undefined,
              },
              rate_limit_signal: d.rate_limit_signal,
              model_pattern: d.model_pattern ?? [],
              verified_with: d.verified_with,
              source: d.source ?? null,
            })),
          problems: load.problems,
        };
      },
    );
  };
}
