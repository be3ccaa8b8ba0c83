import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Workspace } from './workspace.js';
import { libraryRefs, retargetLibraryRefs } from './library-refs.js';

const library = `
nodes:
  base:
    kind: exec
    tasks:
      - id: t
        extends: worker
  derived:
    extends: base
steps:
  s:
    tasks:
      - id: w
        extends: worker
        steering: [style, other]
tasks:
  worker:
    kind: agent
    prompt: p
    steering: [style]
  worker2:
    extends: worker
steering:
  style:
    instructions: be nice
  other:
    instructions: x
`;

const chain = `
nodes:
  - id: build
    extends: base
    fix_loop:
      judge:
        extends: worker
      steps:
        - id: again
          extends: s
          tasks:
            - id: fix
              extends: worker
    escalation:
      extends: worker
  - id: review
    kind: gate
    auto_review:
      id: reviewer
      extends: worker
      steering: [style]
  - id: other
    steps:
      - id: one
        tasks:
          - id: a
            extends: worker
            on_failure:
              tasks:
                - id: r
                  extends: worker
`;

const ws = () =>
  new Workspace('library', 'library', { library, chains: { main: chain, empty: 'nodes: []\n' } });

describe('libraryRefs', () => {
  it('finds every extends of a library task, in the library and each chain file, slots included', () => {
    expect(libraryRefs(ws(), 'tasks', 'worker')).toEqual([
      { file: 'library.yaml', path: 'nodes.base.main.t', field: 'extends' },
      { file: 'library.yaml', path: 'steps.s.w', field: 'extends' },
      { file: 'library.yaml', path: 'tasks.worker2', field: 'extends' },
      { file: 'chains/main.yaml', path: 'build.fix_loop.again.fix', field: 'extends' },
      { file: 'chains/main.yaml', path: 'build.fix_loop.judge', field: 'extends' },
      { file: 'chains/main.yaml', path: 'build.escalation.escalate', field: 'extends' },
      { file: 'chains/main.yaml', path: 'review.auto_review', field: 'extends' },
      { file: 'chains/main.yaml', path: 'other.one.a', field: 'extends' },
      { file: 'chains/main.yaml', path: 'other.one.a.on_failure.main.r', field: 'extends' },
    ]);
  });

  it('tells nodes, steps and tasks apart: a section matches only its own kind', () => {
    expect(libraryRefs(ws(), 'nodes', 'base')).toEqual([
      { file: 'library.yaml', path: 'nodes.derived', field: 'extends' },
      { file: 'chains/main.yaml', path: 'build', field: 'extends' },
    ]);
    expect(libraryRefs(ws(), 'steps', 's')).toEqual([
      { file: 'chains/main.yaml', path: 'build.fix_loop.again', field: 'extends' },
    ]);
    expect(libraryRefs(ws(), 'steps', 'worker')).toEqual([]);
    expect(libraryRefs(ws(), 'nodes', 'worker')).toEqual([]);
  });

  it('finds steering entries of tasks', () => {
    expect(libraryRefs(ws(), 'steering', 'style')).toEqual([
      { file: 'library.yaml', path: 'steps.s.w', field: 'steering' },
      { file: 'library.yaml', path: 'tasks.worker', field: 'steering' },
      { file: 'chains/main.yaml', path: 'review.auto_review', field: 'steering' },
    ]);
  });

  it('retargets each reference and changes nothing else', () => {
    const w = ws();
    const refs = retargetLibraryRefs(w, 'steering', 'style', 'tone');
    expect(refs).toHaveLength(3);
    const out = w.changedTexts();
    expect(Object.keys(out).sort()).toEqual(['chains/main.yaml', 'library.yaml']);
    const lib = parse(out['library.yaml']!);
    expect(lib.steps.s.tasks[0].steering).toEqual(['tone', 'other']);
    expect(lib.tasks.worker.steering).toEqual(['tone']);
    // The steering section itself is the caller's to rename.
    expect(Object.keys(lib.steering)).toEqual(['style', 'other']);
    expect(parse(out['chains/main.yaml']!).nodes[1].auto_review.steering).toEqual(['tone']);
  });

  it('retargets extends of a node only where a node names it', () => {
    const w = ws();
    retargetLibraryRefs(w, 'nodes', 'base', 'root');
    const out = w.changedTexts();
    expect(parse(out['library.yaml']!).nodes.derived).toEqual({ extends: 'root' });
    const c = parse(out['chains/main.yaml']!);
    expect(c.nodes[0].extends).toBe('root');
    expect(c.nodes[0].fix_loop.judge.extends).toBe('worker');
  });
});
