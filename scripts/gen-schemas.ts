/**
 * Writes schemas/<file>.schema.json for every config file from the zod schemas in
 * src/contract/config/. Run `npx tsx scripts/gen-schemas.ts` after changing a schema; a test
 * (test/config-schemas.test.ts) fails while the committed files differ.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configJsonSchemas } from '../src/contract/config/json-schemas.js';

const dir = join(import.meta.dirname, '..', 'schemas');
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(configJsonSchemas())) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote schemas/${name}`);
}
