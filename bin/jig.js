#!/usr/bin/env node
// The package builds in `prepare`, so after `npm ci` the compiled CLI is in dist/: bundled in
// dist/bundle (scripts/bundle.mjs), which starts in about half the time, and as tsc wrote it in
// dist/cli. A tsc run newer than the bundle (a build that stopped before bundling, or a developer's
// `tsc` alone) wins: the bundle would run yesterday's code.
import { statSync } from 'node:fs';

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

import(entry).catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('jig: not built yet; run `npm run build` (npm ci does this for you)\n');
    process.exit(2);
  }
  throw err;
});
