import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OpRefused } from './context.js';
import { fragmentOf, setFragment } from './fragment.js';
import { Workspace } from './workspace.js';

const library = `
nodes:
  checked:
    kind: exec
    tasks:
      - id: work
        kind: builtin
        ref: jig.mr_rebase
tasks:
  worker:
    kind: agent
    prompt: do the work
`;

const chain = `id: main
nodes:
  - id: build
    tasks:
      - id: code
        extends: worker
        prompt: mine
    escalation:
      extends: worker
  - id: verify
    steps:
      - id: test
        tasks:
          - id: run
            kind: builtin
            ref: jig.mr_rebase
    fix_loop:
      tasks:
        - id: fix
          extends: worker
      judge:
        extends: worker
`;

const ws = (area: 'chains' | 'library' = 'chains') =>
  new Workspace(area, area === 'chains' ? 'main' : 'library', { library, chains: { main: chain } });
const frag = (w: Workspace, path: string, yaml: string) => setFragment(w, { op: 'set_fragment', path, yaml });
const chainOut = (w: Workspace) => parse(w.changedTexts()['chains/main.yaml'] ?? 'null');

function refusal(fn: () => unknown): OpRefused {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('fragmentOf', () => {
  it('answers a task as YAML, id included', () => {
    expect(fragmentOf(parse(chain), 'build.main.code', false)).toEqual({
      path: 'build.main.code',
      text: 'id: code\nextends: worker\nprompt: mine\n',
    });
  });
  it('answers the shorthand as step main, a slot task and a handler', () => {
    expect(fragmentOf(parse(chain), 'build.main', false)?.text).toBe(
      'id: main\ntasks:\n  - id: code\n    extends: worker\n    prompt: mine\n',
    );
    expect(fragmentOf(parse(chain), 'build.escalation.escalate', false)?.text).toBe('extends: worker\n');
    expect(fragmentOf(parse(chain), 'verify.fix_loop', false)?.text).toBe(
      'tasks:\n  - id: fix\n    extends: worker\njudge:\n  extends: worker\n',
    );
  });
  it('answers a library component without an id, and null for nothing', () => {
    expect(fragmentOf(parse(library), 'tasks.worker', true)).toEqual({
      path: 'tasks.worker',
      text: 'kind: agent\nprompt: do the work\n',
    });
    expect(fragmentOf(parse(library), 'tasks.none', true)).toBeNull();
    expect(fragmentOf(parse(chain), 'build.nope', false)).toBeNull();
  });
  it('round-trips: its text written back changes nothing', () => {
    const w = ws();
    for (const path of [
      'build',
      'build.main',
      'build.main.code',
      'verify.fix_loop',
      'verify.fix_loop.judge',
      'verify.test',
    ]) {
      frag(w, path, fragmentOf(parse(chain), path, false)!.text);
    }
    expect(w.changedTexts()).toEqual({});
  });
});

describe('set_fragment refusals', () => {
  it('refuses nothing at path', () => {
    expect(refusal(() => frag(ws(), 'build.nope', 'prompt: x')).detail).toMatch(
      /nothing at path `build.nope`/,
    );
  });
  it('refuses YAML that does not parse, with line and col counted in the fragment', () => {
    const e = refusal(() => frag(ws(), 'build.main.code', 'prompt: x\nsteering: [a,\n'));
    expect(e.detail).toMatch(/^yaml does not parse at line 3, column 1: /);
    expect(e.extra).toEqual({ line: 3, col: 1 });
    const e2 = refusal(() => frag(ws(), 'build.main.code', 'prompt: x\nprompt: y\n'));
    expect(e2.detail).toBe('yaml does not parse at line 2, column 1: Map keys must be unique');
    expect(e2.extra).toEqual({ line: 2, col: 1 });
  });
  it('refuses a fragment that is not a mapping', () => {
    expect(refusal(() => frag(ws(), 'build.main.code', '- a\n- b\n')).detail).toMatch(
      /yaml is a list: a component is a mapping/,
    );
    expect(refusal(() => frag(ws(), 'build.main.code', 'hello')).detail).toMatch(/yaml is a scalar/);
    expect(refusal(() => frag(ws(), 'build.main.code', '')).detail).toMatch(/yaml is empty/);
  });
  it('refuses a fragment changing the id', () => {
    expect(refusal(() => frag(ws(), 'build.main.code', 'id: other\nprompt: x')).detail).toMatch(
      /the fragment changes the id of `build.main.code` to "other": use rename/,
    );
    expect(refusal(() => frag(ws(), 'build.escalation.escalate', 'id: help\n')).detail).toMatch(
      /changes the id/,
    );
    expect(refusal(() => frag(ws('library'), 'tasks.worker', 'id: other\n')).detail).toMatch(
      /changes the id of `tasks.worker`/,
    );
    expect(refusal(() => frag(ws(), 'verify.fix_loop', 'id: x\n')).detail).toMatch(
      /`verify.fix_loop` has no id/,
    );
  });
});

describe('set_fragment', () => {
  it('replaces the component, keeping its id first', () => {
    const w = ws();
    frag(w, 'build.main.code', 'kind: agent\nprompt: new\n');
    expect(chainOut(w).nodes[0].tasks).toEqual([{ id: 'code', kind: 'agent', prompt: 'new' }]);
  });
  it('accepts the same id, and a slot default id', () => {
    const w = ws();
    frag(w, 'verify.test', 'id: test\ndescription: d\ntasks: []\n');
    frag(w, 'build.escalation.escalate', 'id: escalate\nprompt: p\n');
    const out = chainOut(w);
    expect(out.nodes[1].steps[0]).toEqual({ id: 'test', description: 'd', tasks: [] });
    expect(out.nodes[0].escalation).toEqual({ id: 'escalate', prompt: 'p' });
  });
  it('writes a handler and a slot in place', () => {
    const w = ws();
    frag(w, 'verify.fix_loop.judge', 'kind: agent\nprompt: judge it\n');
    expect(chainOut(w).nodes[1].fix_loop).toEqual({
      tasks: [{ id: 'fix', extends: 'worker' }],
      judge: { kind: 'agent', prompt: 'judge it' },
    });
    frag(w, 'verify.fix_loop', 'max_attempts: 3\ntasks:\n  - id: fix\n    extends: worker\n');
    expect(chainOut(w).nodes[1].fix_loop).toEqual({
      max_attempts: 3,
      tasks: [{ id: 'fix', extends: 'worker' }],
    });
  });
  it('keeps the shorthand while the step holds only tasks, else writes a step main', () => {
    const w = ws();
    frag(w, 'build.main', 'tasks:\n  - id: a\n    extends: worker\n');
    expect(chainOut(w).nodes[0].tasks).toEqual([{ id: 'a', extends: 'worker' }]);
    frag(w, 'build.main', 'id: main\nread_only: true\ntasks:\n  - id: a\n    extends: worker\n');
    const build = chainOut(w).nodes[0];
    expect(build.tasks).toBeUndefined();
    expect(build.steps).toEqual([{ id: 'main', read_only: true, tasks: [{ id: 'a', extends: 'worker' }] }]);
  });
  it('writes a library component under its name, an id equal to it left out', () => {
    const w = ws('library');
    frag(w, 'tasks.worker', 'id: worker\nkind: agent\nprompt: other\n');
    expect(parse(w.changedTexts()['library.yaml']!).tasks).toEqual({
      worker: { kind: 'agent', prompt: 'other' },
    });
  });
  it('replaces the whole chain at path ""', () => {
    const w = ws();
    frag(w, '', 'id: main\ndescription: d\nnodes: []\n');
    expect(chainOut(w)).toEqual({ id: 'main', description: 'd', nodes: [] });
    expect(refusal(() => frag(ws(), '', 'id: other\nnodes: []\n')).detail).toMatch(/changes the id/);
  });
});
