import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../src/contract/errors.js';
import { repoRoot } from './helpers/server.js';

describe('error catalogue and docs/errors.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'errors.md'), 'utf8');
  const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => ({
    code: m[1]!,
    status: Number(m[2]),
  }));

  it('documents every code with its status', () => {
    const documented = new Map(rows.map((r) => [r.code, r.status]));
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(documented.get(code), `docs/errors.md lacks ${code}`).toBe(entry.status);
    }
  });

  it('documents no code the catalogue lacks', () => {
    const codes = new Set(Object.keys(errorCatalogue));
    expect(rows.filter((r) => !codes.has(r.code)).map((r) => r.code)).toEqual([]);
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
  });
});
