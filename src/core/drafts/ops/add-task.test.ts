import { describe, expect, it } from 'vitest';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import {
  changed,
  CHAIN_FILE,
  chainWs,
  libAt,
  libraryWs,
  nodeOf,
  problemsOf,
  refusal,
  reload,
  TEXTS,
} from '../../../../test/helpers/structure-ops.js';
import { addNode } from './add-node.js';
import { addTask } from './add-task.js';
import type { Workspace } from './workspace.js';

type Fields = Omit<ChainOpOf<'add_task'>, 'op'>;
const add = (w: Workspace, fields: Fields) => addTask(w, { op: 'add_task', ...fields });

describe('add_task, step form', () => {
  it('appends a task of a kind, its default id the kind made unique', () => {
    const w = chainWs();
    expect(add(w, { container: 'verify', step: 'unit', kind: 'subprocess' })).toEqual({
      path: 'verify.unit.subprocess',
    });
    expect(add(w, { container: 'verify', step: 'unit', kind: 'subprocess' })).toEqual({
      path: 'verify.unit.subprocess_2',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [
        {
          id: 'unit',
          tasks: [
            { id: 'run', kind: 'subprocess', argv: ['test'] },
            { id: 'subprocess', kind: 'subprocess' },
            { id: 'subprocess_2', kind: 'subprocess' },
          ],
        },
        { id: 'lint', extends: 'lint' },
      ],
    });
  });

  it('appends a library task by name, with a given id, and it resolves', () => {
    const w = chainWs();
    expect(add(w, { container: 'verify', step: 'unit', extends: 'maker' })).toEqual({
      path: 'verify.unit.maker',
    });
    expect(add(w, { container: 'verify', step: 'unit', extends: 'maker', id: 'again' })).toEqual({
      path: 'verify.unit.again',
    });
    const unit = nodeOf(w, 'verify');
    expect(unit).toMatchObject({
      steps: [
        {
          id: 'unit',
          tasks: [{ id: 'run' }, { id: 'maker', extends: 'maker' }, { id: 'again', extends: 'maker' }],
        },
        {},
      ],
    });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('adds to the tasks shorthand as step `main`', () => {
    const w = chainWs();
    expect(add(w, { container: 'spec', step: 'main', kind: 'agent' })).toEqual({ path: 'spec.main.agent' });
    expect(nodeOf(w, 'spec')).toEqual({
      id: 'spec',
      kind: 'exec',
      tasks: [
        { id: 'author', extends: 'author' },
        { id: 'agent', kind: 'agent' },
      ],
    });
  });

  it('copies inherited tasks in first: of a node built on a library node, of a step built on a library step', () => {
    const w = chainWs();
    expect(add(w, { container: 'build', step: 'main', extends: 'maker' })).toEqual({
      path: 'build.main.maker',
    });
    expect(nodeOf(w, 'build')).toEqual({
      id: 'build',
      extends: 'builder',
      tasks: [
        { id: 'make', extends: 'maker' },
        { id: 'maker', extends: 'maker' },
      ],
    });
    expect(add(w, { container: 'verify', step: 'lint', extends: 'maker' })).toEqual({
      path: 'verify.lint.maker',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [
        {},
        {
          id: 'lint',
          extends: 'lint',
          tasks: [
            { id: 'lint', extends: 'maker' },
            { id: 'maker', extends: 'maker' },
          ],
        },
      ],
    });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('starts the shorthand on a node with no step yet', () => {
    const w = chainWs();
    addNode(w, { op: 'add_node', at: 1, id: 'more', kind: 'exec' });
    expect(add(w, { container: 'more', step: 'main', extends: 'maker' })).toEqual({
      path: 'more.main.maker',
    });
    expect(nodeOf(w, 'more')).toEqual({
      id: 'more',
      kind: 'exec',
      tasks: [{ id: 'maker', extends: 'maker' }],
    });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('adds to a step of a handler', () => {
    const w = chainWs();
    expect(add(w, { container: 'verify.fix_loop', step: 'main', kind: 'builtin' })).toEqual({
      path: 'verify.fix_loop.main.builtin',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      fix_loop: { tasks: [{ id: 'fix' }, { id: 'builtin', kind: 'builtin' }] },
    });
  });

  it('adds to a step of a library node, and to a library step named either way', () => {
    const w = libraryWs();
    expect(add(w, { container: 'nodes.looped', step: 'check', kind: 'forge' })).toEqual({
      path: 'nodes.looped.check.forge',
    });
    expect(add(w, { container: 'steps', step: 'lint', extends: 'maker' })).toEqual({
      path: 'steps.lint.maker',
    });
    expect(add(w, { container: 'steps.lint', kind: 'subprocess', id: 'format' })).toEqual({
      path: 'steps.lint.format',
    });
    expect(libAt(w, 'nodes.looped.steps')).toEqual([
      {
        id: 'check',
        tasks: [
          { id: 'test', extends: 'maker' },
          { id: 'forge', kind: 'forge' },
        ],
      },
    ]);
    expect(libAt(w, 'steps.lint')).toEqual({
      tasks: [
        { id: 'lint', extends: 'maker' },
        { id: 'maker', extends: 'maker' },
        { id: 'format', kind: 'subprocess' },
      ],
    });
    expect(Object.keys(changed(w))).toEqual(['library.yaml']);
  });

  it('keeps a default id off the reserved names', () => {
    const library =
      TEXTS.library?.replace('\ntasks:\n', '\ntasks:\n  judge:\n    kind: agent\n    prompt: J.\n') ?? null;
    const texts = { ...TEXTS, library };
    const w = chainWs(texts);
    expect(add(w, { container: 'verify', step: 'unit', extends: 'judge' })).toEqual({
      path: 'verify.unit.judge_2',
    });
  });
});

describe('add_task, slot form', () => {
  it('adds a judge to a node’s own fix loop', () => {
    const w = chainWs();
    expect(add(w, { slot: 'judge', node: 'verify', extends: 'judger' })).toEqual({
      path: 'verify.fix_loop.judge',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({
      fix_loop: { tasks: [{ id: 'fix' }], judge: { id: 'judge', extends: 'judger' } },
    });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('adds a judge to an inherited fix loop as a fix loop holding only it', () => {
    const w = chainWs();
    expect(add(w, { slot: 'judge', node: 'build', extends: 'judger' })).toEqual({
      path: 'build.fix_loop.judge',
    });
    expect(nodeOf(w, 'build')).toEqual({
      id: 'build',
      extends: 'builder',
      fix_loop: { judge: { id: 'judge', extends: 'judger' } },
    });
    const set = reload(w);
    expect(problemsOf(set)).toEqual([]);
    const build = set.chains.work?.resolved?.nodes.find((n) => n.id === 'build');
    expect(build && 'fix_loop' in build && build.fix_loop?.judge?.path).toBe('build.fix_loop.judge');
  });

  it('adds an escalation to an exec node and an auto_review to a gate', () => {
    const w = chainWs();
    expect(add(w, { slot: 'escalation', node: 'verify', extends: 'helper' })).toEqual({
      path: 'verify.escalation.escalate',
    });
    expect(add(w, { slot: 'auto_review', node: 'approve', kind: 'agent' })).toEqual({
      path: 'approve.auto_review',
    });
    expect(nodeOf(w, 'verify')).toMatchObject({ escalation: { id: 'escalate', extends: 'helper' } });
    expect(nodeOf(w, 'approve')).toMatchObject({ auto_review: { id: 'reviewer', kind: 'agent' } });
  });

  it('adds slots on the library', () => {
    const w = libraryWs();
    expect(add(w, { slot: 'judge', node: 'nodes.builder', extends: 'judger' })).toEqual({
      path: 'nodes.builder.fix_loop.judge',
    });
    expect(add(w, { slot: 'escalation', node: 'nodes.looped', kind: 'agent' })).toEqual({
      path: 'nodes.looped.escalation.escalate',
    });
    expect(libAt(w, 'nodes.builder.fix_loop')).toEqual({
      tasks: [{ id: 'repair', extends: 'maker' }],
      judge: { id: 'judge', extends: 'judger' },
    });
    expect(libAt(w, 'nodes.looped.escalation')).toEqual({ id: 'escalate', kind: 'agent' });
  });
});

describe('add_task refusals', () => {
  it('refuses an incomplete or mixed form, kind and extends both or neither, a bad kind or library name', () => {
    const w = chainWs();
    const r = (f: Fields) => refusal(() => add(w, f));
    expect(r({ kind: 'agent' })).toBe(
      'neither form is complete: give `container` and `step`, or `slot` and `node`',
    );
    expect(r({ container: 'verify', kind: 'agent' })).toBe('the step form needs both `container` and `step`');
    expect(r({ step: 'unit', kind: 'agent' })).toBe('the step form needs both `container` and `step`');
    expect(r({ slot: 'judge', kind: 'agent' })).toBe('the slot form needs both `slot` and `node`');
    expect(r({ node: 'verify', kind: 'agent' })).toBe('the slot form needs both `slot` and `node`');
    expect(r({ container: 'verify', step: 'unit', slot: 'judge', node: 'verify', kind: 'agent' })).toBe(
      'give the step form (`container`, `step`) or the slot form (`slot`, `node`), not both',
    );
    expect(r({ container: 'verify', step: 'unit', kind: 'agent', extends: 'maker' })).toMatch(
      /^give `kind` or `extends`, not both/,
    );
    expect(r({ container: 'verify', step: 'unit' })).toBe(
      'give `kind` (a new task) or `extends` (a library task)',
    );
    expect(r({ container: 'verify', step: 'unit', kind: 'gate' })).toBe(
      'kind `gate` is not a task kind: `agent`, `subprocess`, `builtin`, `forge`',
    );
    expect(r({ container: 'verify', step: 'unit', extends: 'builder' })).toBe(
      'extends `builder`: the library has no task of that name',
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses an id not allowed or taken, and a container or step that is not there', () => {
    const w = chainWs();
    const r = (f: Fields) => refusal(() => add(w, f));
    expect(r({ container: 'verify', step: 'unit', kind: 'agent', id: 'Run' })).toMatch(
      /^task id "Run" is not an identifier/,
    );
    expect(r({ container: 'verify', step: 'unit', kind: 'agent', id: 'judge' })).toMatch(
      /^task id `judge` is reserved/,
    );
    expect(r({ container: 'verify', step: 'unit', kind: 'agent', id: 'run' })).toBe(
      'task id `run` is already taken here',
    );
    // Taken among the tasks a step inherits from its library step.
    expect(r({ container: 'verify', step: 'lint', kind: 'agent', id: 'lint' })).toBe(
      'task id `lint` is already taken here',
    );
    expect(r({ container: 'nowhere', step: 'unit', kind: 'agent' })).toBe('nothing at path `nowhere`');
    expect(r({ container: 'verify', step: 'e2e', kind: 'agent' })).toBe(
      '`verify` has no step `e2e`: its steps are `unit`, `lint`',
    );
    expect(r({ container: 'spec', step: 'other', kind: 'agent' })).toBe(
      '`spec` has no step `other`: its steps are `main`',
    );
    expect(r({ container: 'approve', step: 'main', kind: 'agent' })).toBe(
      '`approve` is a gate: a gate has no steps',
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses a bad slot, an id in the slot form, and a slot the node cannot take or already has', () => {
    const w = chainWs();
    const r = (f: Fields) => refusal(() => add(w, f));
    expect(r({ slot: 'reviewer', node: 'approve', kind: 'agent' })).toBe(
      'slot `reviewer` is not a task slot: `judge`, `escalation` or `auto_review`',
    );
    expect(r({ slot: 'judge', node: 'verify', kind: 'agent', id: 'mine' })).toBe(
      "id is taken only in the step form: the judge task's id is `judge`",
    );
    expect(r({ slot: 'judge', node: 'nowhere', kind: 'agent' })).toBe('nothing at path `nowhere`');
    expect(r({ slot: 'judge', node: 'verify.unit', kind: 'agent' })).toBe(
      '`verify.unit` is a step: a task slot belongs to a node',
    );
    expect(r({ slot: 'judge', node: 'spec', kind: 'agent' })).toBe(
      '`spec` has no fix loop: a judge needs one (add_handler `fix_loop` first)',
    );
    expect(r({ slot: 'judge', node: 'looped', kind: 'agent' })).toBe(
      '`looped` already has a judge at `looped.fix_loop.judge`',
    );
    expect(r({ slot: 'escalation', node: 'approve', kind: 'agent' })).toBe(
      '`approve` is a gate: escalation belongs on an exec node',
    );
    expect(r({ slot: 'escalation', node: 'build', kind: 'agent' })).toBe(
      '`build` already has an `escalation` at `build.escalation.escalate`',
    );
    expect(r({ slot: 'auto_review', node: 'verify', kind: 'agent' })).toBe(
      '`verify` is an exec node: auto_review belongs on a gate',
    );
    expect(r({ slot: 'auto_review', node: 'check', kind: 'agent' })).toBe(
      '`check` already has an `auto_review` at `check.auto_review`',
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses on the library', () => {
    const w = libraryWs();
    const r = (f: Fields) => refusal(() => add(w, f));
    expect(r({ container: 'steps.lint', step: 'lint', kind: 'agent' })).toBe(
      '`steps.lint` is a library step: name it as `container: steps.lint` alone, or as `container: steps` with `step: lint`',
    );
    expect(r({ container: 'steps', kind: 'agent' })).toBe('the step form needs both `container` and `step`');
    expect(r({ container: 'steps', step: 'none', kind: 'agent' })).toBe('nothing at path `steps.none`');
    expect(r({ container: 'steps.lint', kind: 'agent', id: 'lint' })).toBe(
      'task id `lint` is already taken here',
    );
    expect(r({ container: 'nodes.looped', step: 'check', extends: 'nothing' })).toBe(
      'extends `nothing`: the library has no task of that name',
    );
    expect(r({ container: 'nodes.review_gate', step: 'main', kind: 'agent' })).toBe(
      '`nodes.review_gate` is a gate: a gate has no steps',
    );
    expect(r({ slot: 'judge', node: 'nodes.looped', kind: 'agent' })).toBe(
      '`nodes.looped` already has a judge at `nodes.looped.fix_loop.judge`',
    );
    expect(r({ slot: 'auto_review', node: 'nodes.builder', kind: 'agent' })).toBe(
      '`nodes.builder` is an exec node: auto_review belongs on a gate',
    );
    expect(r({ slot: 'judge', node: 'tasks.maker', kind: 'agent' })).toBe(
      '`tasks.maker` is a task: a task slot belongs to a node',
    );
    expect(changed(w)).toEqual({});
  });

  it('leaves the chain file alone when refused', () => {
    const w = chainWs();
    refusal(() => add(w, { container: 'build', step: 'main', kind: 'agent', id: 'make' }));
    expect(changed(w)).toEqual({});
    expect(Object.keys(changed(w))).not.toContain(CHAIN_FILE);
  });
});
