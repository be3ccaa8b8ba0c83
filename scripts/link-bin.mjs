// `npx jig` in a clone: npm links the bins of dependencies into node_modules/.bin, never the
// package's own, so npx would copy the clone into its cache and build it there (tens of seconds the
// first time). Linking bin/jig.js beside the others makes npx find it at once. Run by `prepare`.
import { existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');
if (existsSync(join(root, 'node_modules'))) {
  mkdirSync(binDir, { recursive: true });
  const link = join(binDir, 'jig');
  const target = join('..', '..', 'bin', 'jig.js');
  let current = null;
  try {
    current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : 'not a link';
  } catch {
    // Not there yet.
  }
  if (current !== target) {
    if (current !== null) unlinkSync(link);
    symlinkSync(target, link);
  }
}
