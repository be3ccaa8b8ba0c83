import type { z } from 'zod';
import type { HarnessesAnswer } from '../../contract/harnesses-route.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { didYouMean } from '../../core/config/suggest.js';
import { readConfigText } from '../config/config-dir.js';
import type { HarnessCatalog } from './catalog.js';
import { executableVersion, resolveExecutable } from './installed.js';

/**
 * Each harness of harnesses.yaml with whether its CLI is installed on this machine and its version:
 * `GET /api/harnesses` answers it, and the diagnostics list it. No file: no harnesses.
 */
export async function listHarnessStates(
  configDir: string,
  catalog: HarnessCatalog,
): Promise<z.infer<typeof HarnessesAnswer>> {
  const load = loadHarnesses(readConfigText(configDir, 'harnesses.yaml'));
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
  // The provider is any definition's id (a CLI added as YAML too): one that loads none is named here.
  const unknown = Object.entries(load.model?.harnesses ?? {})
    .filter(([, h]) => providers[h.provider] === undefined)
    .map(([id, h]) => ({
      path: `harnesses.${id}`,
      field: 'provider',
      message: `provider \`${h.provider}\` has no definition (defaults/harnesses/ or config/harnesses/${h.provider}.yaml)${didYouMean(h.provider, Object.keys(providers))}`,
      file: 'harnesses.yaml',
      line: null,
      col: null,
    }));
  return { harnesses, problems: [...load.problems, ...unknown] };
}
