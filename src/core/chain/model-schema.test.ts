import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResolvedChain } from '../../contract/config/chain-model.js';
import { validateConfigSet } from '../config/validate-set.js';

const root = join(import.meta.dirname, '..', '..', '..');

/** Every chain that resolves in a config folder, as the model an item freezes. */
function models(dir: string): [string, unknown][] {
  const read = (f: string): string | null => {
    try {
      return readFileSync(join(dir, f), 'utf8');
    } catch {
      return null;
    }
  };
  const chains: Record<string, string> = {};
  for (const f of readdirSync(join(dir, 'chains')).filter((x) => x.endsWith('.yaml')))
    chains[f.slice(0, -5)] = readFileSync(join(dir, 'chains', f), 'utf8');
  const set = validateConfigSet({
    library: read('library.yaml'),
    chains,
    harnesses: read('harnesses.yaml'),
    policy: read('policy.yaml'),
  });
  return Object.entries(set.chains).flatMap(([id, c]) =>
    c.resolved ? [[id, c.resolved] as [string, unknown]] : [],
  );
}

describe('the frozen chain schema', () => {
  const seeded = models(join(root, 'defaults', 'config'));

  it('reads the model of every seeded chain, whole', () => {
    expect(seeded.map(([id]) => id).sort()).toEqual(['default', 'manual', 'merge-request', 'quick-task']);
    for (const [id, model] of seeded) {
      const r = ResolvedChain.safeParse(model);
      expect(r.success ? 'ok' : `${id}: ${JSON.stringify(r.error.issues.slice(0, 3))}`).toBe('ok');
      expect(r.data).toEqual(model);
    }
  });

  it('reads the model of a chain using every kind of component', () => {
    const all = models(join(root, 'test', 'fixtures', 'config', 'valid', 'every-component'));
    expect(all.length).toBeGreaterThan(0);
    for (const [id, model] of all) {
      const r = ResolvedChain.safeParse(model);
      expect(r.success ? 'ok' : `${id}: ${JSON.stringify(r.error.issues.slice(0, 3))}`).toBe('ok');
    }
  });

  it('refuses a frozen chain it cannot run on, naming where', () => {
    const [, model] = seeded[0]!;
    const broken = structuredClone(model) as { nodes: { kind: string }[] };
    broken.nodes[0]!.kind = 'wait';
    const r = ResolvedChain.safeParse(broken);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['nodes', 0, 'kind']);
  });
});
