import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OpRefused } from './context.js';
import { rename } from './rename.js';
import { Workspace } from './workspace.js';

const library = `
nodes:
  checked:
    kind: exec
    tasks:
      - id: work
        extends: worker
        steering: [style]
tasks:
  worker:
    kind: agent
    prompt: do the work
  careful:
    extends: worker
steps:
  lint:
    tasks:
      - id: lint
        extends: careful
steering:
  style:
    instructions: be brief
  tone:
    instructions: be kind
`;

const chain = `id: main
nodes:
  - id: build
    tasks:
      - id: code
        extends: worker
        steering: [tone, style]
    on_base_changed:
      restart_from: build
    escalation:
      extends: careful
  - id: verify
    extends: checked
    steps:
      - id: test
        extends: lint
        tasks:
          - id: run
            extends: careful
    fix_loop:
      tasks:
        - id: fix
          extends: worker
      judge:
        id: judge
        extends: worker
    on_base_changed:
      restart_from: build
  - id: approve
    kind: gate
    artifact: build
    reject_to: build
    auto_review:
      extends: worker
`;

const other = `nodes:
  - id: solo
    extends: checked
`;

const texts = () => ({ library, chains: { main: chain, other } });
const ws = (area: 'chains' | 'library' = 'chains') =>
  new Workspace(area, area === 'chains' ? 'main' : 'library', texts());
const ren = (w: Workspace, path: string, id: string) => rename(w, { op: 'rename', path, id });
const fileOut = (w: Workspace, file: string) => parse(w.changedTexts()[file] ?? 'null');

function refusal(fn: () => unknown): OpRefused {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('rename refusals', () => {
  it('refuses nothing at path', () => {
    expect(refusal(() => ren(ws(), 'nope', 'x')).detail).toMatch(/nothing at path `nope`/);
    expect(refusal(() => ren(ws('library'), 'tasks.nope', 'x')).detail).toMatch(
      /nothing at path `tasks.nope`/,
    );
  });
  it('refuses an id that is not allowed', () => {
    expect(refusal(() => ren(ws(), 'build', 'Build')).detail).toMatch(/node id "Build" is not an identifier/);
    expect(refusal(() => ren(ws(), 'build.main.code', 'main')).detail).toMatch(/task id `main` is reserved/);
    expect(refusal(() => ren(ws('library'), 'tasks.worker', '9x')).detail).toMatch(
      /library task name "9x" is not an identifier/,
    );
  });
  it('refuses an id its container already holds', () => {
    expect(refusal(() => ren(ws(), 'build', 'verify')).detail).toMatch(
      /node id `verify` is already taken here/,
    );
    expect(refusal(() => ren(ws('library'), 'tasks.worker', 'careful')).detail).toMatch(
      /library task name `careful` is already taken here/,
    );
    expect(refusal(() => ren(ws('library'), 'steering.style', 'tone')).detail).toMatch(/already taken/);
  });
  it('refuses a component that has no id', () => {
    expect(refusal(() => ren(ws(), 'verify.fix_loop', 'x')).detail).toMatch(
      /`verify.fix_loop` has no id to rename/,
    );
    expect(refusal(() => ren(ws(), 'build.on_base_changed', 'x')).detail).toMatch(/has no id/);
  });
  it('refuses a chain id that is not one, or names an existing chain', () => {
    expect(refusal(() => ren(ws(), '', 'Other')).detail).toMatch(/chain id "Other" is not a chain id/);
    expect(refusal(() => ren(ws(), '', 'other')).detail).toMatch(/chain `other` already exists/);
  });
  it('refuses renaming a chain the draft does not have', () => {
    const w = new Workspace('chains', 'ghost', texts());
    expect(refusal(() => ren(w, '', 'x')).detail).toMatch(/this draft has no chain/);
  });
});

describe('rename', () => {
  it('answers [] and changes nothing for the same id', () => {
    const w = ws();
    expect(ren(w, 'build', 'build')).toEqual({ updated: [] });
    expect(ren(w, 'build.main', 'main')).toEqual({ updated: [] });
    expect(ren(w, 'build.escalation.escalate', 'escalate')).toEqual({ updated: [] });
    expect(ren(w, '', 'main')).toEqual({ updated: [] });
    expect(ren(ws('library'), 'tasks.worker', 'worker')).toEqual({ updated: [] });
    expect(w.changedTexts()).toEqual({});
  });

  it('a node rewrites reject_to and restart_from naming it, never a gate artifact', () => {
    const w = ws();
    expect(ren(w, 'build', 'make')).toEqual({
      updated: [
        { path: 'make', field: 'on_base_changed.restart_from' },
        { path: 'verify', field: 'on_base_changed.restart_from' },
        { path: 'approve', field: 'reject_to' },
      ],
    });
    const out = fileOut(w, 'chains/main.yaml');
    expect(out.nodes.map((n: { id: string }) => n.id)).toEqual(['make', 'verify', 'approve']);
    expect(out.nodes[2]).toEqual({
      id: 'approve',
      kind: 'gate',
      artifact: 'build',
      reject_to: 'make',
      auto_review: { extends: 'worker' },
    });
  });

  it('a step, task, judge, escalation or reviewer changes its id only', () => {
    const w = ws();
    expect(ren(w, 'verify.test', 'tests')).toEqual({ updated: [] });
    expect(ren(w, 'verify.tests.run', 'go')).toEqual({ updated: [] });
    expect(ren(w, 'verify.fix_loop.judge', 'arbiter')).toEqual({ updated: [] });
    expect(ren(w, 'build.escalation.escalate', 'help')).toEqual({ updated: [] });
    expect(ren(w, 'approve.auto_review', 'critic')).toEqual({ updated: [] });
    const out = fileOut(w, 'chains/main.yaml');
    expect(out.nodes[1].steps).toEqual([
      { id: 'tests', extends: 'lint', tasks: [{ id: 'go', extends: 'careful' }] },
    ]);
    expect(out.nodes[1].fix_loop.judge).toEqual({ id: 'arbiter', extends: 'worker' });
    expect(out.nodes[0].escalation).toEqual({ id: 'help', extends: 'careful' });
    expect(out.nodes[2].auto_review).toEqual({ id: 'critic', extends: 'worker' });
    expect(Object.keys(w.changedTexts())).toEqual(['chains/main.yaml']);
  });

  it('renaming the shorthand step makes it a real step', () => {
    const w = ws();
    ren(w, 'build.main', 'coding');
    const build = fileOut(w, 'chains/main.yaml').nodes[0];
    expect(build.tasks).toBeUndefined();
    expect(build.steps).toEqual([
      { id: 'coding', tasks: [{ id: 'code', extends: 'worker', steering: ['tone', 'style'] }] },
    ]);
  });

  it('the chain moves to its new file, its id following', () => {
    const w = ws();
    expect(ren(w, '', 'renamed')).toEqual({ updated: [] });
    const out = w.changedTexts();
    expect(out['chains/main.yaml']).toBeNull();
    expect(parse(out['chains/renamed.yaml']!).id).toBe('renamed');
    expect(w.chainFile()).toBe('chains/renamed.yaml');
    expect(w.chainFiles()).toEqual(['chains/other.yaml', 'chains/renamed.yaml']);
  });

  it('a library task rewrites every extends naming it, in the library and each chain file', () => {
    const w = ws('library');
    expect(ren(w, 'tasks.careful', 'thorough')).toEqual({
      updated: [
        { file: 'library.yaml', path: 'steps.lint.lint', field: 'extends' },
        { file: 'chains/main.yaml', path: 'build.escalation.escalate', field: 'extends' },
        { file: 'chains/main.yaml', path: 'verify.test.run', field: 'extends' },
      ],
    });
    const out = w.changedTexts();
    expect(Object.keys(out).sort()).toEqual(['chains/main.yaml', 'library.yaml']);
    const lib = parse(out['library.yaml']!);
    expect(Object.keys(lib.tasks)).toEqual(['worker', 'thorough']);
    expect(lib.tasks.thorough).toEqual({ extends: 'worker' });
    expect(lib.steps.lint.tasks[0].extends).toBe('thorough');
    const main = parse(out['chains/main.yaml']!);
    expect(main.nodes[0].escalation.extends).toBe('thorough');
    expect(main.nodes[1].steps[0].tasks[0].extends).toBe('thorough');
  });

  it('a library node rewrites node extends only; steering rewrites steering entries', () => {
    const w = ws('library');
    expect(ren(w, 'nodes.checked', 'tested')).toEqual({
      updated: [
        { file: 'chains/main.yaml', path: 'verify', field: 'extends' },
        { file: 'chains/other.yaml', path: 'solo', field: 'extends' },
      ],
    });
    expect(ren(w, 'steering.style', 'voice')).toEqual({
      updated: [
        { file: 'library.yaml', path: 'nodes.tested.main.work', field: 'steering' },
        { file: 'chains/main.yaml', path: 'build.main.code', field: 'steering' },
      ],
    });
    const out = w.changedTexts();
    expect(parse(out['chains/other.yaml']!).nodes[0].extends).toBe('tested');
    expect(parse(out['chains/main.yaml']!).nodes[0].tasks[0].steering).toEqual(['tone', 'voice']);
    expect(Object.keys(parse(out['library.yaml']!).steering)).toEqual(['voice', 'tone']);
  });

  it('a task inside a library node changes its id only', () => {
    const w = ws('library');
    expect(ren(w, 'nodes.checked.main.work', 'job')).toEqual({ updated: [] });
    expect(parse(w.changedTexts()['library.yaml']!).nodes.checked.tasks[0].id).toBe('job');
  });
});
