import { describe, expect, it } from 'vitest';
import { parseYamlTree, withOrigin, type AMap } from '../config/tree.js';
import { loadChain } from './load-chain.js';
import { loadLibrary } from './load-library.js';

const LIBRARY = `
tasks:
  base:
    kind: agent
    harness: claude
    prompt: Do the work.
  strong_base:
    extends: base
    profile: strong
nodes:
  build:
    tasks:
      - id: work
        extends: strong_base
`;

describe('extends resolution', () => {
  const lib = loadLibrary(LIBRARY);
  const ctx = { library: lib.index, resolver: lib.resolver };

  it('resolves chains of library parents', () => {
    expect(lib.problems).toEqual([]);
    const c = loadChain('x', 'nodes:\n  - id: build\n    extends: build\n', ctx);
    expect(c.problems).toEqual([]);
    const node = c.resolved!.nodes[0]!;
    expect(node.kind === 'exec' && node.steps[0]!.tasks[0]).toMatchObject({
      path: 'build.main.work',
      profile: 'strong',
      prompt: 'Do the work.',
    });
  });

  it('looks `<namespace>:<name>` up through the add-on lookup', () => {
    const addonTask = withOrigin(
      parseYamlTree('kind: builtin\nref: jig.mr_rebase\n', 'addons/release/library.yaml', 'x').tree!,
      { file: 'addons/release/library.yaml', source: 'library:release:tasks.rebase' },
    ) as AMap;
    const withAddons = loadLibrary(LIBRARY, (section, ns, name) =>
      section === 'tasks' && ns === 'release' && name === 'rebase' ? addonTask : undefined,
    );
    const c = loadChain(
      'x',
      'nodes:\n  - id: rebase\n    tasks:\n      - id: rebase\n        extends: release:rebase\n',
      {
        library: withAddons.index,
        resolver: withAddons.resolver,
      },
    );
    expect(c.problems).toEqual([]);
    const node = c.resolved!.nodes[0]!;
    expect(node.kind === 'exec' && node.steps[0]!.tasks[0]).toMatchObject({
      kind: 'builtin',
      ref: 'jig.mr_rebase',
    });
  });

  it('refuses a chain whose id in the file is not its file name', () => {
    const c = loadChain('x', 'id: y\nnodes:\n  - id: build\n    extends: build\n', ctx);
    expect(c.problems.map((p) => [p.message, p.line, p.col])).toEqual([
      ["id `y` differs from the file name `x`: a chain's id is its file stem", 1, 5],
    ]);
  });
});
