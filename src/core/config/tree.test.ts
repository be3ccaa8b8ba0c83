import { describe, expect, it } from 'vitest';
import { locate, parseYamlTree, toPlain } from './tree.js';

describe('parseYamlTree', () => {
  it('reports a syntax error at its line and column', () => {
    // Kept here rather than in the corpus: Prettier cannot format a file that does not parse.
    const r = parseYamlTree(
      'nodes:\n  - id: build\n    kind: exec\n    tasks: [\n',
      'chains/broken.yaml',
      'chain',
    );
    expect(r.tree).toBeNull();
    expect(r.problems).toEqual([
      {
        path: '',
        field: null,
        message: 'Flow sequence in block collection must be sufficiently indented and end with a ]',
        file: 'chains/broken.yaml',
        line: 5,
        col: 1,
      },
    ]);
  });

  it('refuses a file that is not a mapping', () => {
    expect(parseYamlTree('- a\n- b\n', 'repos.yaml', 'file').problems[0]?.message).toBe(
      'the file must be a mapping of keys',
    );
  });

  it('reads an empty file as an empty mapping', () => {
    const r = parseYamlTree('# only a comment\n', 'intake.yaml', 'file');
    expect(r.problems).toEqual([]);
    expect(toPlain(r.tree!)).toEqual({});
  });

  it('points at keys, values, and for a missing key at the mapping that lacks it', () => {
    const tree = parseYamlTree('a:\n  b: 1\nlist:\n  - x: 2\n', 'f.yaml', 'file').tree!;
    expect(locate(tree, ['a', 'b'], 'key')).toEqual({ file: 'f.yaml', line: 2, col: 3 });
    expect(locate(tree, ['a', 'b'], 'value')).toEqual({ file: 'f.yaml', line: 2, col: 6 });
    expect(locate(tree, ['a', 'c'], 'key')).toEqual({ file: 'f.yaml', line: 1, col: 1 });
    expect(locate(tree, ['list', 0, 'y'], 'key')).toEqual({ file: 'f.yaml', line: 4, col: 5 });
  });
});
