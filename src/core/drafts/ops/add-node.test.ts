import { describe, expect, it } from 'vitest';
import {
  changed,
  CHAIN_FILE,
  libAt,
  libraryWs,
  nodeIds,
  nodeOf,
  problemsOf,
  refusal,
  reload,
  chainWs,
  TEXTS,
} from '../../../../test/helpers/structure-ops.js';
import { addNode, addStep } from './add-node.js';
import { Workspace } from './workspace.js';

describe('add_node', () => {
  it('inserts an exec node with no step, which the result shows as a problem', () => {
    const w = chainWs();
    expect(addNode(w, { op: 'add_node', at: 1, id: 'draft', kind: 'exec' })).toBeUndefined();
    expect(nodeIds(w)).toEqual(['spec', 'draft', 'approve', 'build', 'verify', 'looped', 'check']);
    expect(nodeOf(w, 'draft')).toEqual({ id: 'draft', kind: 'exec' });
    expect(Object.keys(changed(w))).toEqual([CHAIN_FILE]);
    expect(problemsOf(reload(w))).toEqual(['chains/work.yaml draft: an exec node needs `tasks` or `steps`']);
  });

  it('inserts a gate at the end', () => {
    const w = chainWs();
    addNode(w, { op: 'add_node', at: 6, id: 'last_look', kind: 'gate' });
    expect(nodeIds(w).at(-1)).toBe('last_look');
    expect(nodeOf(w, 'last_look')).toEqual({ id: 'last_look', kind: 'gate' });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('starts the node list of a chain that has none', () => {
    const w = new Workspace('chains', 'work', { ...TEXTS, chains: { work: 'description: Empty.\n' } });
    addNode(w, { op: 'add_node', at: 0, id: 'first', kind: 'gate' });
    expect(changed(w)).toEqual({
      [CHAIN_FILE]: { description: 'Empty.', nodes: [{ id: 'first', kind: 'gate' }] },
    });
  });

  it('refuses an id that is not allowed, reserved or taken, a bad kind and a position outside', () => {
    const w = chainWs();
    const add = (at: number, id: string, kind: string) => () => addNode(w, { op: 'add_node', at, id, kind });
    expect(refusal(add(0, 'Bad Id', 'exec'))).toMatch(/^node id "Bad Id" is not an identifier/);
    expect(refusal(add(0, 'fix_loop', 'exec'))).toMatch(/^node id `fix_loop` is reserved/);
    expect(refusal(add(0, 'build', 'exec'))).toBe('node id `build` is already taken here');
    expect(refusal(add(0, 'new', 'task'))).toBe('kind `task` is not a node kind: `exec` or `gate`');
    expect(refusal(add(7, 'new', 'exec'))).toBe('at 7 is outside the list: 0 to 6');
    expect(refusal(add(-1, 'new', 'exec'))).toBe('at -1 is outside the list: 0 to 6');
    expect(changed(w)).toEqual({});
  });

  it('refuses a draft with no chain', () => {
    const w = new Workspace('chains', 'gone', TEXTS);
    expect(refusal(() => addNode(w, { op: 'add_node', at: 0, id: 'x', kind: 'exec' }))).toBe(
      'this draft has no chain to add a node to',
    );
  });
});

describe('add_step', () => {
  it('adds `step_<n>` to a node with steps, n being the steps held plus one', () => {
    const w = chainWs();
    expect(addStep(w, { op: 'add_step', container: 'verify', at: 1 })).toEqual({ path: 'verify.step_3' });
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [{ id: 'unit' }, { id: 'step_3', tasks: [] }, { id: 'lint', extends: 'lint' }],
    });
    expect(problemsOf(reload(w))).toEqual([
      'chains/work.yaml verify.step_3.tasks: a step needs at least one task',
    ]);
  });

  it('takes a given id', () => {
    const w = chainWs();
    expect(addStep(w, { op: 'add_step', container: 'verify', at: 2, id: 'e2e' })).toEqual({
      path: 'verify.e2e',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [{ id: 'unit' }, { id: 'lint' }, { id: 'e2e', tasks: [] }],
    });
  });

  it('counts past a default id already taken', () => {
    const chain =
      'nodes:\n  - id: n\n    steps:\n      - id: step_2\n        tasks: [{id: t, kind: subprocess, argv: [x]}]\n';
    const w = new Workspace('chains', 'work', { ...TEXTS, chains: { work: chain } });
    expect(addStep(w, { op: 'add_step', container: 'n', at: 1 })).toEqual({ path: 'n.step_3' });
  });

  it('renames the tasks shorthand `step_1` first', () => {
    const w = chainWs();
    expect(addStep(w, { op: 'add_step', container: 'spec', at: 1 })).toEqual({ path: 'spec.step_2' });
    expect(nodeOf(w, 'spec')).toEqual({
      id: 'spec',
      kind: 'exec',
      steps: [
        { id: 'step_1', tasks: [{ id: 'author', extends: 'author' }] },
        { id: 'step_2', tasks: [] },
      ],
    });
  });

  it('copies the steps a node inherits before adding, since a list replaces the inherited one whole', () => {
    const w = chainWs();
    expect(addStep(w, { op: 'add_step', container: 'build', at: 0, id: 'prepare' })).toEqual({
      path: 'build.prepare',
    });
    expect(nodeOf(w, 'build')).toEqual({
      id: 'build',
      extends: 'builder',
      steps: [
        { id: 'prepare', tasks: [] },
        { id: 'step_1', tasks: [{ id: 'make', extends: 'maker' }] },
      ],
    });
  });

  it('adds to a handler', () => {
    const w = chainWs();
    expect(addStep(w, { op: 'add_step', container: 'verify.fix_loop', at: 1 })).toEqual({
      path: 'verify.fix_loop.step_2',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      fix_loop: {
        steps: [
          { id: 'step_1', tasks: [{ id: 'fix', kind: 'subprocess', argv: ['fix'] }] },
          { id: 'step_2', tasks: [] },
        ],
      },
    });
  });

  it('adds to a library node and its handlers', () => {
    const w = libraryWs();
    expect(addStep(w, { op: 'add_step', container: 'nodes.looped', at: 0, id: 'setup' })).toEqual({
      path: 'nodes.looped.setup',
    });
    expect(
      addStep(w, { op: 'add_step', container: 'nodes.looped.on_base_changed.on_conflict', at: 1 }),
    ).toEqual({
      path: 'nodes.looped.on_base_changed.on_conflict.step_2',
    });
    expect(libAt(w, 'nodes.looped.steps')).toEqual([
      { id: 'setup', tasks: [] },
      { id: 'check', tasks: [{ id: 'test', extends: 'maker' }] },
    ]);
    expect(libAt(w, 'nodes.looped.on_base_changed')).toEqual({
      restart_from: 'looped',
      on_conflict: {
        steps: [
          { id: 'step_1', tasks: [{ id: 'resolve', extends: 'helper' }] },
          { id: 'step_2', tasks: [] },
        ],
      },
    });
    expect(Object.keys(changed(w))).toEqual(['library.yaml']);
  });

  it('refuses an id not allowed or taken, a position outside, nothing at container, a gate or a step', () => {
    const w = chainWs();
    const add = (container: string, at: number, id?: string) => () =>
      addStep(w, { op: 'add_step', container, at, ...(id === undefined ? {} : { id }) });
    expect(refusal(add('verify', 0, 'Unit'))).toMatch(/^step id "Unit" is not an identifier/);
    expect(refusal(add('verify', 0, 'main'))).toMatch(/^step id `main` is reserved/);
    expect(refusal(add('verify', 0, 'unit'))).toBe('step id `unit` is already taken here');
    // The shorthand becomes `step_1`, so that id is taken too.
    expect(refusal(add('spec', 0, 'step_1'))).toBe('step id `step_1` is already taken here');
    expect(refusal(add('verify', 3))).toBe('at 3 is outside the list: 0 to 2');
    expect(refusal(add('spec', 2))).toBe('at 2 is outside the list: 0 to 1');
    expect(refusal(add('nowhere', 0))).toBe('nothing at path `nowhere`');
    expect(refusal(add('approve', 0))).toBe('`approve` is a gate: a gate has no steps');
    // A gate through its library parent.
    expect(refusal(add('check', 0))).toBe('`check` is a gate: a gate has no steps');
    expect(refusal(add('verify.unit', 0))).toMatch(
      /^`verify.unit` is a step: steps go in a node or a handler/,
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses on the library', () => {
    const w = libraryWs();
    const add = (container: string, at: number, id?: string) => () =>
      addStep(w, { op: 'add_step', container, at, ...(id === undefined ? {} : { id }) });
    expect(refusal(add('nodes.looped', 0, 'check'))).toBe('step id `check` is already taken here');
    expect(refusal(add('nodes.looped', 2))).toBe('at 2 is outside the list: 0 to 1');
    expect(refusal(add('nodes.nothing', 0))).toBe('nothing at path `nodes.nothing`');
    expect(refusal(add('nodes.review_gate', 0))).toBe('`nodes.review_gate` is a gate: a gate has no steps');
    expect(refusal(add('steps.lint', 0))).toMatch(/^`steps.lint` is a step: steps go in a node or a handler/);
    expect(refusal(add('tasks.maker', 0))).toMatch(
      /^`tasks.maker` is a task: steps go in a node or a handler/,
    );
    expect(changed(w)).toEqual({});
  });
});
