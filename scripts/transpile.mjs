// Writes dist/ from src/: each TypeScript module as its own JavaScript module, with a source map,
// as `tsc -p tsconfig.build.json` would. esbuild does it in about a second where tsc took seven on
// the 2-core machine, and every fresh clone builds once (`npm ci` runs `prepare`). The types are
// checked by `npm run typecheck` (and `npm run check` before a commit), not here; tsconfig.json's
// isolatedModules and verbatimModuleSyntax keep each file transpilable on its own.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const src = join(root, 'src');
/** Every module of src/ but the tests, as tsconfig.build.json includes them. */
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(src, f));

await build({
  entryPoints: sources,
  outdir: join(root, 'dist'),
  outbase: src,
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  tsconfig: join(root, 'tsconfig.build.json'),
  logLevel: 'warning',
});
