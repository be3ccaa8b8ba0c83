// Writes test/slow-files.json from the last run's figures (.cache/test-files.json, which
// test/ci-summary.ts writes): every file that took 8 s or more, in seconds (the longer of its two
// projects), for test/sequencer.ts to start first.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rows = JSON.parse(readFileSync(process.argv[2] ?? join(root, '.cache', 'test-files.json'), 'utf8'));
const longest = new Map();
for (const r of rows) longest.set(r.file, Math.max(longest.get(r.file) ?? 0, Math.round(r.seconds)));
const slow = [...longest].filter(([, s]) => s >= 8).sort((a, b) => b[1] - a[1]);
writeFileSync(
  join(root, 'test', 'slow-files.json'),
  `${JSON.stringify(Object.fromEntries(slow), null, 2)}\n`,
);
console.log(`${slow.length} files of 8 s or more`);
