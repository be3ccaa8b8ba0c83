// Bundles the compiled CLI (dist/cli/main.js, with the server it starts) into dist/bundle/, which
// bin/jig.js runs. Node spent about half of a `jig serve` start, and most of a short CLI verb, finding,
// reading and compiling some 800 separate modules (issue 42, docs/performance.md "Start-up"); one
// bundle split at the lazy verbs' dynamic imports loads the same code in a fraction of that.
// tsc's dist/ stays whole beside it: the builtin task scripts run from there, and bin/jig.js falls
// back to it when it is newer than the bundle (a `tsc` without this step).
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });

const result = await build({
  entryPoints: { main: join(root, 'dist', 'cli', 'main.js') },
  outdir,
  bundle: true,
  // Chunks shared by the entry and the verbs loaded later (src/cli/lazy.ts) stay separate files.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Stack traces keep the functions' names; run with --enable-source-maps for the TypeScript lines.
  keepNames: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // Native code, and packages that load files of their own at run time, stay in node_modules.
  external: [
    'better-sqlite3',
    'pg-native',
    'pino',
    'pino-pretty',
    'thread-stream',
    'bufferutil',
    'utf-8-validate',
  ],
  // Bundled CommonJS packages call require() for Node's built-ins; ESM output has none of its own.
  banner: {
    js: "import { createRequire as __jigRequire } from 'node:module';\nconst require = __jigRequire(import.meta.url);",
  },
});

// Which source modules each output file holds: test/cli-start.test.ts reads it to tell what a start loads.
writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));
