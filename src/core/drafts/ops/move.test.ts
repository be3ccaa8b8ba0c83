import { describe, expect, it } from 'vitest';
import {
  changed,
  chainWs,
  libAt,
  libraryWs,
  nodeIds,
  nodeOf,
  problemsOf,
  refusal,
  reload,
  TEXTS,
} from '../../../../test/helpers/structure-ops.js';
import { addStep } from './add-node.js';
import { addTask } from './add-task.js';
import { move } from './move.js';
import type { Workspace } from './workspace.js';

const mv = (w: Workspace, path: string, to: number, toStep?: string) =>
  move(w, { op: 'move', path, to, ...(toStep === undefined ? {} : { to_step: toStep }) });

describe('move a node', () => {
  it('moves a node that adds no order problem', () => {
    const w = chainWs();
    expect(mv(w, 'looped', 3)).toBeUndefined();
    expect(nodeIds(w)).toEqual(['spec', 'approve', 'build', 'looped', 'verify', 'check']);
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('refuses a move putting a restart_from target after the node naming it', () => {
    const w = chainWs();
    expect(refusal(() => mv(w, 'build', 3))).toBe(
      'moving `build` to 3 adds an order problem: verify.on_base_changed.restart_from: on_base_changed.restart_from `build` must name this node or an earlier exec node; `build` comes later',
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses a move putting a reject_to target after the gate, or a gate before what it reviews', () => {
    const w = chainWs();
    expect(refusal(() => mv(w, 'approve', 0))).toBe(
      'moving `approve` to 0 adds an order problem: approve.reject_to: reject_to `spec` must name an exec node before this gate; `spec` comes later; approve.artifact: artifact `spec`: no node before this gate produces it (a task with `produces: spec`)',
    );
    // The gate `check` is a gate through its library node; its reject_to names `build`.
    expect(refusal(() => mv(w, 'check', 1))).toBe(
      'moving `check` to 1 adds an order problem: check.reject_to: reject_to `build` must name an exec node before this gate; `build` comes later',
    );
    expect(changed(w)).toEqual({});
  });

  it('allows a move in a chain that already has an order problem, as long as it adds none', () => {
    const chain = `nodes:
  - id: approve
    kind: gate
    artifact: spec
    reject_to: spec
  - id: spec
    tasks: [{id: author, extends: author}]
  - id: other
    tasks: [{id: make, extends: maker}]
`;
    const w = chainWs({ ...TEXTS, chains: { work: chain } });
    mv(w, 'other', 0);
    expect(nodeIds(w)).toEqual(['other', 'approve', 'spec']);
    mv(w, 'approve', 2);
    expect(nodeIds(w)).toEqual(['other', 'spec', 'approve']);
    expect(problemsOf(reload(w))).toEqual([]);
    expect(refusal(() => mv(w, 'spec', 2))).toMatch(
      /^moving `spec` to 2 adds an order problem: approve.reject_to/,
    );
  });

  it('refuses nothing at path and a position outside the list', () => {
    const w = chainWs();
    expect(refusal(() => mv(w, 'nowhere', 0))).toBe('nothing at path `nowhere`');
    expect(refusal(() => mv(w, 'spec', 6))).toBe('to 6 is outside the list: 0 to 5');
    expect(refusal(() => mv(w, 'spec', -1))).toBe('to -1 is outside the list: 0 to 5');
  });
});

describe('move a step or task', () => {
  it('moves a step in its list, and a task in its step', () => {
    const w = chainWs();
    mv(w, 'verify.lint', 0);
    addTask(w, { op: 'add_task', container: 'spec', step: 'main', kind: 'agent' });
    mv(w, 'spec.main.agent', 0);
    expect(nodeOf(w, 'verify')).toMatchObject({ steps: [{ id: 'lint' }, { id: 'unit' }] });
    expect(nodeOf(w, 'spec')).toMatchObject({ tasks: [{ id: 'agent' }, { id: 'author' }] });
  });

  it('leaves the shorthand step in place: it is its container’s only one', () => {
    const w = chainWs();
    expect(mv(w, 'spec.main', 0)).toBeUndefined();
    expect(changed(w)).toEqual({});
    expect(refusal(() => mv(w, 'spec.main', 1))).toBe('to 1 is outside the list: 0 to 0');
  });

  it('moves a task to a sibling step, which takes in the tasks it inherits first', () => {
    const w = chainWs();
    mv(w, 'verify.unit.run', 0, 'lint');
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [
        { id: 'unit', tasks: [] },
        {
          id: 'lint',
          extends: 'lint',
          tasks: [
            { id: 'run', kind: 'subprocess', argv: ['test'] },
            { id: 'lint', extends: 'maker' },
          ],
        },
      ],
    });
    expect(problemsOf(reload(w))).toEqual([
      'chains/work.yaml verify.unit.tasks: a step needs at least one task',
    ]);
  });

  it('moves a task within its own step when to_step names it', () => {
    const w = chainWs();
    addTask(w, { op: 'add_task', container: 'verify', step: 'unit', kind: 'builtin' });
    mv(w, 'verify.unit.builtin', 0, 'unit');
    expect(nodeOf(w, 'verify')).toMatchObject({ steps: [{ tasks: [{ id: 'builtin' }, { id: 'run' }] }, {}] });
  });

  it('refuses a to_step not beside the task’s step, one already holding the id, a non-task, a to outside', () => {
    const w = chainWs();
    addTask(w, { op: 'add_task', container: 'verify', step: 'unit', kind: 'agent', id: 'lint' });
    const before = structuredClone(nodeOf(w, 'verify'));
    expect(refusal(() => mv(w, 'verify.unit.run', 0, 'e2e'))).toBe(
      'to_step `e2e` is not a step beside `verify.unit`: the steps of `verify` are `unit`, `lint`',
    );
    expect(refusal(() => mv(w, 'verify.unit.run', 0, 'main'))).toMatch(
      /^to_step `main` is not a step beside/,
    );
    expect(refusal(() => mv(w, 'verify.unit.lint', 0, 'lint'))).toBe(
      'step `verify.lint` already holds a task `lint`',
    );
    expect(refusal(() => mv(w, 'verify.unit', 0, 'lint'))).toBe(
      '`verify.unit` is a step: `to_step` moves a task of a step',
    );
    expect(refusal(() => mv(w, 'verify.unit.run', 2, 'lint'))).toBe('to 2 is outside the list: 0 to 1');
    expect(refusal(() => mv(w, 'verify.unit.run', 2))).toBe('to 2 is outside the list: 0 to 1');
    expect(refusal(() => mv(w, 'verify.fix_loop', 0))).toBe(
      '`verify.fix_loop` is a `fix_loop`: only nodes, steps and tasks have a place in a list',
    );
    expect(refusal(() => mv(w, 'looped', 0, 'x'))).toBe(
      '`looped` is a node: `to_step` moves a task of a step',
    );
    expect(nodeOf(w, 'verify')).toEqual(before);
  });
});

describe('move on the library', () => {
  it('moves steps and tasks inside library components', () => {
    const w = libraryWs();
    addStep(w, { op: 'add_step', container: 'nodes.looped', at: 1, id: 'more' });
    mv(w, 'nodes.looped.more', 0);
    mv(w, 'nodes.looped.check.test', 0, 'more');
    addTask(w, { op: 'add_task', container: 'steps.lint', kind: 'agent' });
    mv(w, 'steps.lint.agent', 0);
    expect(libAt(w, 'nodes.looped.steps')).toEqual([
      { id: 'more', tasks: [{ id: 'test', extends: 'maker' }] },
      { id: 'check', tasks: [] },
    ]);
    expect(libAt(w, 'steps.lint.tasks')).toEqual([
      { id: 'agent', kind: 'agent' },
      { id: 'lint', extends: 'maker' },
    ]);
  });

  it('refuses a library component, nothing at path, a to outside, a library step’s task to a step', () => {
    const w = libraryWs();
    expect(refusal(() => mv(w, 'nodes.looped', 0))).toBe(
      '`nodes.looped` is a library component: library.yaml keeps components by name, in no order',
    );
    expect(refusal(() => mv(w, 'tasks.maker', 0))).toMatch(/^`tasks.maker` is a library component/);
    expect(refusal(() => mv(w, 'nodes.none', 0))).toBe('nothing at path `nodes.none`');
    expect(refusal(() => mv(w, 'nodes.looped.check', 1))).toBe('to 1 is outside the list: 0 to 0');
    expect(refusal(() => mv(w, 'steps.lint.lint', 0, 'other'))).toBe(
      '`steps.lint` is a library step: it has no step beside it',
    );
    expect(refusal(() => mv(w, 'nodes.looped.check.test', 0, 'none'))).toBe(
      'to_step `none` is not a step beside `nodes.looped.check`: the steps of `nodes.looped` are `check`',
    );
    expect(refusal(() => mv(w, 'nodes.looped.fix_loop.judge', 0))).toBe(
      '`nodes.looped.fix_loop.judge` is a `judge`: only nodes, steps and tasks have a place in a list',
    );
    expect(changed(w)).toEqual({});
  });
});
