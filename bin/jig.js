#!/usr/bin/env node
// The package builds in `prepare`, so after `npm ci` the compiled CLI is in dist/.
import('../dist/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('jig: not built yet; run `npm run build` (npm ci does this for you)\n');
    process.exit(2);
  }
  throw err;
});
