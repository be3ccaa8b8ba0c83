import { listHarnesses, listProviders } from '../../client/harnesses.js';
import { JigClient } from '../../client/http.js';
import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';

/** `jig admin harnesses`. */
export function adminHarnesses(id: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    const { harnesses } = await listHarnesses(client);
    if (id === undefined) {
      if (opts.json) printJson({ harnesses });
      else {
        for (const h of harnesses) {
          const state = !h.enabled
            ? 'disabled'
            : h.installed
              ? `installed${h.version ? ` (${h.version})` : ''}`
              : 'not installed';
          process.stdout.write(`${h.id}\t${h.provider}\t${h.executable}\t${state}\n`);
        }
      }
      return EXIT_OK;
    }
    const h = harnesses.find((x) => x.id === id);
    if (!h) {
      process.stderr.write(`jig: no harness ${id} in harnesses.yaml\n`);
      return EXIT_FAIL;
    }
    const provider = (await listProviders(client)).providers.find((p) => p.id === h.provider) ?? null;
    if (opts.json) printJson({ harness: h, provider });
    else {
      const lines = [
        `${h.id}: ${h.provider}, ${h.enabled ? 'enabled' : 'disabled'}`,
        `executable ${h.executable} -> ${h.path ?? 'not found on PATH'}${h.version ? ` (${h.version})` : ''}`,
        `definition checked against ${h.verified_with ?? 'no installed version (from reference notes)'}`,
      ];
      if (provider) {
        const can = Object.entries(provider.capabilities)
          .filter(([k, v]) => k !== 'system_prompt' && v === true)
          .map(([k]) => k);
        lines.push(
          `system prompt: ${provider.capabilities.system_prompt}; takes: ${can.join(', ') || 'nothing else'}`,
        );
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return EXIT_OK;
  });
}
