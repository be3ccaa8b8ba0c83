import type { z } from 'zod';
import type { HarnessesAnswer } from '../../contract/harnesses-route.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
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
  return { harnesses, problems: load.problems };
}
