// What the last whole build was made from, so `npm test` rebuilds only when an input changed: after
// `npm ci` (whose `prepare` builds) CI's `npm test` used to build the same tree a second time.
//   node scripts/build-stamp.mjs write   after a build: records the inputs' digest in dist/
//   node scripts/build-stamp.mjs check   exits 0 when dist/ was built from the inputs as they are now
// The digest covers the files' contents (a fresh clone's timestamps say nothing), read in a fixed order.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-inputs');
const folders = ['src', 'web', 'scripts'];
const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
// The build's outputs, all of which a build that got as far as writing the stamp made.
const outputs = ['dist/cli/main.js', 'dist/bundle/main.js', 'dist/web/index.html', 'dist/vendor'];

function walk(dir, into) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, into);
    else if (e.isFile()) into.push(p);
  }
  return into;
}

function digest() {
  const h = createHash('sha256');
  const all = [...folders.flatMap((f) => walk(join(root, f), [])), ...files.map((f) => join(root, f))];
  for (const p of all) {
    h.update(relative(root, p));
    h.update('\0');
    h.update(existsSync(p) ? readFileSync(p) : '');
    h.update('\0');
  }
  return h.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') {
  writeFileSync(stamp, `${digest()}\n`);
} else if (mode === 'check') {
  const built = outputs.every((o) => existsSync(join(root, o)));
  const same = built && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest();
  if (!same) process.stderr.write('the build is missing or older than its inputs: building\n');
  process.exit(same ? 0 : 1);
} else {
  process.stderr.write('usage: node scripts/build-stamp.mjs write|check\n');
  process.exit(2);
}
