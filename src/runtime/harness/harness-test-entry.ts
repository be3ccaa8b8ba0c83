import type { z } from 'zod';
import type { HarnessTestAnswer } from '../../contract/harness-test.js';
import { JigError } from '../../contract/errors.js';
import { estimateCost } from '../../core/harness/prices.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { readConfigText } from '../config/config-dir.js';
import type { HarnessCatalog } from './catalog.js';
import { testHarness } from './harness-test.js';
import { resolveExecutable } from './installed.js';

/** A harness of harnesses.yaml, tested: its provider and executable looked up, refusals in words. */
export async function testHarnessEntry(
  i: { configDir: string; runDir: string; catalog: HarnessCatalog },
  id: string,
  opts: { timeout_s: number; keep: boolean },
): Promise<z.infer<typeof HarnessTestAnswer>> {
  const harnesses = loadHarnesses(readConfigText(i.configDir, 'harnesses.yaml')).model?.harnesses ?? {};
  // Own keys only: `__proto__` or `toString` names no harness.
  const entry = Object.hasOwn(harnesses, id) ? harnesses[id] : undefined;
  if (!entry) throw new JigError('not_found', { what: `harness ${id}` });
  const providers = i.catalog.providers().providers;
  const def = Object.hasOwn(providers, entry.provider) ? providers[entry.provider] : undefined;
  const refuse = (reason: string): JigError => new JigError('harness_not_testable', { harness: id, reason });
  if (!def) throw refuse(`its provider \`${entry.provider}\` does not load (GET /api/harnesses/providers)`);
  if (!def.mock)
    throw refuse(
      `provider \`${def.id}\` declares no \`mock:\` (how to point the CLI at a model on loopback); docs/harnesses.md says how`,
    );
  const executable = entry.executable ?? def.command[0] ?? entry.provider;
  if (resolveExecutable(executable) === null)
    throw refuse(`its executable \`${executable}\` is not installed here (not found on PATH)`);
  const r = await testHarness({
    def,
    executable,
    runDir: i.runDir,
    timeoutMs: opts.timeout_s * 1000,
    keep: opts.keep,
    path: process.env.PATH ?? '',
  });
  const model = r.readout.model ?? def.mock.model ?? null;
  const estimate =
    r.readout.cost_usd_reported === null && model !== null
      ? estimateCost(i.catalog.prices(), def.id, model, r.readout.tokens)
      : null;
  const cost =
    r.readout.cost_usd_reported !== null
      ? { usd: r.readout.cost_usd_reported, source: 'reported' as const, model }
      : estimate
        ? { usd: estimate.usd, source: 'estimated' as const, model }
        : { usd: null, source: 'unpriced' as const, model };
  return { harness: id, provider: def.id, ok: r.problems.length === 0, ...r, cost };
}
