import { capabilityRow } from '../../core/harness/capability-table.js';
import { JigError } from '../../contract/errors.js';
import {
  getProfile,
  getProvider,
  harnessProfiles,
  listHarnesses,
  listProviders,
  testHarnessRoute,
} from '../../contract/routes/harnesses.js';
import type { Services } from '../compose.js';
import { listHarnessStates } from '../../runtime/harness/harness-list.js';
import { testHarnessEntry } from '../../runtime/harness/harness-test-entry.js';
import { routeFile } from '../route-file.js';

/** Harnesses, agent profiles and the providers (agent CLIs) Jig knows. */
export const harnessRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'harnessCatalog' | 'paths' | 'templates'>) => {
    const svc = inst.templates;
    const catalog = inst.harnessCatalog;

    r.serve(harnessProfiles, async () => svc.profiles());

    r.serve(listHarnesses, async () => listHarnessStates(inst.paths.configDir, catalog));

    const providers = () => {
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
                d.capabilities.context.channel === 'system_prompt' ? ('flag' as const) : ('inline' as const),
              model: d.capabilities.model !== undefined,
              effort: d.capabilities.effort !== undefined,
              permission_mode: d.capabilities.permission_mode !== undefined,
              allowed_tools: d.capabilities.allowed_tools !== undefined,
              denied_tools: d.capabilities.deny_tools !== undefined,
              permission_prompt: d.capabilities.permission_prompt !== undefined,
              permission_hook: d.capabilities.permission_hook?.install ?? null,
              resume: d.capabilities.resume !== undefined,
            },
            table: capabilityRow(d),
            rate_limit_signal: d.rate_limit_signal,
            usage_reported: d.usage_reported,
            model_pattern: d.model_pattern ?? [],
            verified_with: d.verified_with,
            source: d.source ?? null,
          })),
        problems: load.problems,
      };
    };

    r.serve(listProviders, async () => providers());

    r.serve(getProvider, async ({ params }) => {
      const found = providers().providers.find((p) => p.id === params.id);
      if (!found) throw new JigError('not_found', { what: `provider ${params.id}` });
      return found;
    });

    r.serve(testHarnessRoute, async ({ params, body }) =>
      testHarnessEntry(
        { configDir: inst.paths.configDir, runDir: inst.paths.runDir, catalog },
        params.id,
        body,
      ),
    );

    r.serve(getProfile, async ({ params }) => {
      const all = svc.profiles();
      const found = all.profiles.find((p) => p.name === params.name);
      if (!found) throw new JigError('not_found', { what: `profile ${params.name}` });
      return found;
    });
  },
);
