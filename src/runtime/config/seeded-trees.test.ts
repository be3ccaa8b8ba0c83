import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseYamlTree } from '../../core/config/tree.js';
import { readSeededTrees, SEEDED_TREES_FILE } from './seeded-trees.js';

const dir = mkdtempSync(join(tmpdir(), 'jig-seeded-trees-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seeded trees', () => {
  it("the build's file holds the seeded config's trees, each what the parser gives for its text", () => {
    const known = readSeededTrees(SEEDED_TREES_FILE);
    expect(known.map((k) => k.file)).toEqual(
      expect.arrayContaining(['library.yaml', 'chains/default.yaml', 'policy.yaml', 'harnesses.yaml']),
    );
    for (const k of known) {
      // The parser's own answer: only a start from dist/ puts the build's trees in its memo.
      const fresh = parseYamlTree(k.text, k.file, k.source);
      expect(fresh.problems).toEqual([]);
      expect(k.parsed).toEqual({ tree: fresh.tree, problems: [] });
    }
  });

  it('takes nothing from a file that is missing, not JSON, or not trees', () => {
    expect(readSeededTrees(join(dir, 'missing.json'))).toEqual([]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{not json');
    expect(readSeededTrees(bad)).toEqual([]);
    writeFileSync(
      bad,
      JSON.stringify([
        { text: 'a: 1\n', file: 'f.yaml', source: 'file', tree: { t: 'map', entries: 'no' } },
        { text: 'b: 2\n', file: 'f.yaml', source: 'file' },
        ...[{ text: 'c: 3\n', file: 'f.yaml', source: 'file' }].map((k) => ({
          ...k,
          tree: parseYamlTree(k.text, k.file, k.source).tree,
        })),
      ]),
    );
    expect(readSeededTrees(bad)).toEqual([
      {
        text: 'c: 3\n',
        file: 'f.yaml',
        source: 'file',
        parsed: { tree: parseYamlTree('c: 3\n', 'f.yaml', 'file').tree, problems: [] },
      },
    ]);
  });
});
