// Parses the config files a fresh home is seeded with (defaults/config) as a start parses them, and
// writes the trees to dist/seeded-trees.json, which a start takes instead of parsing those texts
// again (src/runtime/config/seeded-trees.ts, issue 43). Run after the transpile: it uses dist/.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { readConfigDir } = await import(join(root, 'dist/runtime/config/config-dir.js'));
const { validateConfigSet } = await import(join(root, 'dist/core/config/validate-set.js'));
const { rememberedTrees } = await import(join(root, 'dist/core/config/tree.js'));

validateConfigSet(readConfigDir(join(root, 'defaults', 'config'), null).texts);
const kept = rememberedTrees()
  .filter((k) => k.parsed.tree !== null && k.parsed.problems.length === 0)
  .map((k) => ({ text: k.text, file: k.file, source: k.source, tree: k.parsed.tree }))
  // Only what JSON carries exactly (a YAML scalar may be a number JSON cannot write, like .inf).
  .filter((k) => isDeepStrictEqual(JSON.parse(JSON.stringify(k.tree)), k.tree));
writeFileSync(join(root, 'dist', 'seeded-trees.json'), JSON.stringify(kept));
