import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchemas } from '../src/contract/config/json-schemas.js';

const dir = join(import.meta.dirname, '..', 'schemas');

describe('schemas/*.schema.json', () => {
  const generated = configJsonSchemas();
  it('are the files scripts/gen-schemas.ts writes (run `npx tsx scripts/gen-schemas.ts`)', () => {
    const committed = readdirSync(dir)
      .filter((f) => f.endsWith('.schema.json'))
      .sort();
    expect(committed).toEqual(Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated))
      expect(readFileSync(join(dir, name), 'utf8'), name).toBe(text);
  });
  it('refuse unknown keys (additionalProperties: false at the top)', () => {
    for (const text of Object.values(generated))
      expect(JSON.parse(text)).toMatchObject({ additionalProperties: false });
  });
});
