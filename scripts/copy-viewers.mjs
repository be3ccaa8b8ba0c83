// Part of `npm run build`: copies the API viewers' pinned files (server/cdn-assets.ts) from their
// npm packages into dist/vendor, checking each against its pinned sha384, so `/docs` and `/redoc`
// still work when the CDN cannot be reached. A file that differs from its pin fails the build.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { cdnAssets, vendorFile } = await import(join(root, 'dist', 'server', 'cdn-assets.js'));
for (const a of cdnAssets) {
  const from = join(root, 'node_modules', a.pkg, a.file);
  const digest = `sha384-${createHash('sha384').update(readFileSync(from)).digest('base64')}`;
  if (digest !== a.integrity) {
    console.error(`${from} is not the pinned ${a.pkg}@${a.version} (${digest}, pinned ${a.integrity})`);
    process.exit(1);
  }
  const to = join(root, 'dist', 'vendor', vendorFile(a));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}
console.log(`copied ${cdnAssets.length} viewer files to dist/vendor`);
