#!/usr/bin/env node
// The package builds in `prepare`, so after `npm ci` the compiled CLI is in dist/: bundled in
// dist/bundle (scripts/bundle.mjs), which starts in about half the time, and as tsc wrote it in
// dist/cli. A tsc run newer than the bundle (a build that stopped before bundling, or a developer's
// `tsc` alone) wins: the bundle would run yesterday's code.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const mtime = (rel) => {
  try {
    return statSync(new URL(rel, import.meta.url)).mtimeMs;
  } catch {
    return -1;
  }
};
const bundled = mtime('../dist/bundle/main.js');
const entry =
  bundled >= 0 && bundled >= mtime('../dist/cli/main.js') ? '../dist/bundle/main.js' : '../dist/cli/main.js';

/*
 * `jig serve` runs from its own CommonJS bundle with V8's code cache (bin/code-cache.js, ADR 0028),
 * unless the bundle is stale as above, source maps were asked for (a vm script gets none), or
 * JIG_CODE_CACHE=off.
 */
const serveBundle = () => {
  if (process.argv[2] !== 'serve' || entry !== '../dist/bundle/main.js') return null;
  if (process.env.JIG_CODE_CACHE === 'off') return null;
  const maps = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (maps.includes('--enable-source-maps')) return null;
  try {
    const { file, ascii } = JSON.parse(
      readFileSync(new URL('../dist/bundle/serve.json', import.meta.url), 'utf8'),
    );
    const path = fileURLToPath(new URL(`../dist/bundle/${file}`, import.meta.url));
    return mtime(`../dist/bundle/${file}`) >= 0 ? { path, ascii: ascii === true } : null;
  } catch {
    return null;
  }
};
const serve = serveBundle();

(serve
  ? import('./code-cache.js').then(({ runWithCodeCache }) =>
      runWithCodeCache(serve.path, { ascii: serve.ascii }),
    )
  : import(entry)
).catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('jig: not built yet; run `npm run build` (npm ci does this for you)\n');
    process.exit(2);
  }
  throw err;
});
