import { describe, expect, it } from 'vitest';
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
} from '../../../../test/helpers/structure-ops.js';
import { addHandler, removeHandler } from './handlers.js';
import type { Workspace } from './workspace.js';

const add = (w: Workspace, path: string, kind: string) => addHandler(w, { op: 'add_handler', path, kind });
const drop = (w: Workspace, path: string, kind: string) =>
  removeHandler(w, { op: 'remove_handler', path, kind });

describe('add_handler', () => {
  it('adds each handler to an exec node, holding one empty step `main`', () => {
    const w = chainWs();
    expect(add(w, 'spec', 'on_failure')).toEqual({ path: 'spec.on_failure' });
    expect(add(w, 'spec', 'fix_loop')).toEqual({ path: 'spec.fix_loop' });
    expect(add(w, 'spec', 'on_conflict')).toEqual({ path: 'spec.on_base_changed.on_conflict' });
    expect(nodeOf(w, 'spec')).toEqual({
      id: 'spec',
      kind: 'exec',
      tasks: [{ id: 'author', extends: 'author' }],
      on_failure: { tasks: [] },
      fix_loop: { tasks: [] },
      on_base_changed: { on_conflict: { tasks: [] } },
    });
    expect(Object.keys(changed(w))).toEqual([CHAIN_FILE]);
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('keeps on_conflict beside the node’s restart_from', () => {
    const w = chainWs();
    add(w, 'verify', 'on_conflict');
    expect(nodeOf(w, 'verify')).toMatchObject({
      on_base_changed: { restart_from: 'build', on_conflict: { tasks: [] } },
    });
  });

  it('adds on_failure to a step and to a task', () => {
    const w = chainWs();
    expect(add(w, 'verify.unit', 'on_failure')).toEqual({ path: 'verify.unit.on_failure' });
    expect(add(w, 'verify.unit.run', 'on_failure')).toEqual({ path: 'verify.unit.run.on_failure' });
    expect(nodeOf(w, 'verify')).toMatchObject({
      steps: [
        {
          id: 'unit',
          tasks: [{ id: 'run', kind: 'subprocess', argv: ['test'], on_failure: { tasks: [] } }],
          on_failure: { tasks: [] },
        },
        {},
      ],
    });
  });

  it('adds handlers on the library', () => {
    const w = libraryWs();
    expect(add(w, 'nodes.looped', 'on_failure')).toEqual({ path: 'nodes.looped.on_failure' });
    expect(add(w, 'steps.lint', 'on_failure')).toEqual({ path: 'steps.lint.on_failure' });
    expect(add(w, 'tasks.maker', 'on_failure')).toEqual({ path: 'tasks.maker.on_failure' });
    expect(libAt(w, 'nodes.looped.on_failure')).toEqual({ tasks: [] });
    expect(libAt(w, 'steps.lint')).toEqual({
      tasks: [{ id: 'lint', extends: 'maker' }],
      on_failure: { tasks: [] },
    });
    expect(libAt(w, 'tasks.maker')).toEqual({
      kind: 'subprocess',
      argv: ['make'],
      on_failure: { tasks: [] },
    });
  });

  it('refuses a bad kind, nothing at path, a gate, a handler already there (own or inherited), a wrong holder', () => {
    const w = chainWs();
    expect(refusal(() => add(w, 'spec', 'judge'))).toBe(
      'kind `judge` is not a handler: `on_failure`, `fix_loop` or `on_conflict`',
    );
    expect(refusal(() => add(w, 'nowhere', 'on_failure'))).toBe('nothing at path `nowhere`');
    expect(refusal(() => add(w, 'approve', 'on_failure'))).toBe(
      '`approve` is a gate: handlers belong on an exec node',
    );
    expect(refusal(() => add(w, 'check', 'fix_loop'))).toBe(
      '`check` is a gate: handlers belong on an exec node',
    );
    expect(refusal(() => add(w, 'verify', 'fix_loop'))).toBe(
      '`verify` already has `fix_loop` at `verify.fix_loop`',
    );
    expect(refusal(() => add(w, 'build', 'on_failure'))).toBe(
      '`build` already has `on_failure` (inherited) at `build.on_failure`',
    );
    expect(refusal(() => add(w, 'looped', 'on_conflict'))).toBe(
      '`looped` already has `on_conflict` (inherited) at `looped.on_base_changed.on_conflict`',
    );
    expect(refusal(() => add(w, 'verify.unit', 'fix_loop'))).toBe(
      '`verify.unit` is a step: `fix_loop` belongs on an exec node',
    );
    expect(refusal(() => add(w, 'verify.fix_loop', 'on_failure'))).toBe(
      '`verify.fix_loop` is a `fix_loop`: `on_failure` belongs on an exec node, a step or a task',
    );
    expect(refusal(() => add(w, 'verify.fix_loop.main.fix', 'on_failure'))).toBe(
      '`verify.fix_loop.main.fix` is inside a handler: handlers do not nest',
    );
    expect(changed(w)).toEqual({});
  });

  it('refuses on the library', () => {
    const w = libraryWs();
    expect(refusal(() => add(w, 'nodes.builder', 'bogus'))).toMatch(/^kind `bogus` is not a handler/);
    expect(refusal(() => add(w, 'nodes.none', 'fix_loop'))).toBe('nothing at path `nodes.none`');
    expect(refusal(() => add(w, 'nodes.review_gate', 'on_failure'))).toBe(
      '`nodes.review_gate` is a gate: handlers belong on an exec node',
    );
    expect(refusal(() => add(w, 'nodes.builder', 'fix_loop'))).toBe(
      '`nodes.builder` already has `fix_loop` at `nodes.builder.fix_loop`',
    );
    expect(refusal(() => add(w, 'nodes.derived', 'on_failure'))).toBe(
      '`nodes.derived` already has `on_failure` (inherited) at `nodes.derived.on_failure`',
    );
    expect(refusal(() => add(w, 'steps.lint', 'on_conflict'))).toBe(
      '`steps.lint` is a step: `on_conflict` belongs on an exec node',
    );
    expect(refusal(() => add(w, 'steering.house', 'on_failure'))).toBe(
      '`steering.house` is a steering: `on_failure` belongs on an exec node, a step or a task',
    );
    expect(changed(w)).toEqual({});
  });
});

describe('remove_handler', () => {
  it('deletes a handler the node writes itself', () => {
    const w = chainWs();
    expect(drop(w, 'verify', 'fix_loop')).toBeUndefined();
    expect(nodeOf(w, 'verify')).not.toHaveProperty('fix_loop');
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('writes null where the node’s library base supplies one', () => {
    const w = chainWs();
    drop(w, 'build', 'on_failure');
    drop(w, 'looped', 'on_conflict');
    expect(nodeOf(w, 'build')).toEqual({ id: 'build', extends: 'builder', on_failure: null });
    expect(nodeOf(w, 'looped')).toEqual({
      id: 'looped',
      extends: 'looped',
      on_base_changed: { on_conflict: null },
    });
    const set = reload(w);
    expect(problemsOf(set)).toEqual([]);
    const nodes = set.chains.work?.resolved?.nodes ?? [];
    const build = nodes.find((n) => n.id === 'build');
    const looped = nodes.find((n) => n.id === 'looped');
    expect(build).toBeDefined();
    expect(build).not.toHaveProperty('on_failure');
    expect(build).toHaveProperty('fix_loop');
    expect(looped).toHaveProperty('on_base_changed', { restart_from: 'looped' });
  });

  it('writes null over a handler the node overrides, and drops an emptied on_base_changed', () => {
    const w = chainWs();
    addHandler(w, { op: 'add_handler', path: 'spec', kind: 'on_conflict' });
    drop(w, 'spec', 'on_conflict');
    expect(nodeOf(w, 'spec')).toEqual({
      id: 'spec',
      kind: 'exec',
      tasks: [{ id: 'author', extends: 'author' }],
    });
    addHandler(w, { op: 'add_handler', path: 'verify', kind: 'on_conflict' });
    drop(w, 'verify', 'on_conflict');
    expect(nodeOf(w, 'verify')).toMatchObject({ on_base_changed: { restart_from: 'build' } });
    expect(changed(w)).toEqual({});
  });

  it('removes on_failure of a step or task, and works on the library', () => {
    const w = libraryWs();
    drop(w, 'nodes.derived', 'fix_loop');
    drop(w, 'nodes.builder', 'fix_loop');
    expect(libAt(w, 'nodes.builder')).not.toHaveProperty('fix_loop');
    expect(libAt(w, 'nodes.derived')).toEqual({
      extends: 'builder',
      description: 'Builds more.',
      fix_loop: null,
    });
    add(w, 'steps.lint', 'on_failure');
    drop(w, 'steps.lint', 'on_failure');
    expect(libAt(w, 'steps.lint')).toEqual({ tasks: [{ id: 'lint', extends: 'maker' }] });
  });

  it('refuses a bad kind, nothing at path, a handler that is not there or already removed', () => {
    const w = chainWs();
    expect(refusal(() => drop(w, 'spec', 'escalation'))).toMatch(/^kind `escalation` is not a handler/);
    expect(refusal(() => drop(w, 'nowhere', 'fix_loop'))).toBe('nothing at path `nowhere`');
    expect(refusal(() => drop(w, 'spec', 'fix_loop'))).toBe('`spec` has no `fix_loop` to remove');
    expect(refusal(() => drop(w, 'verify', 'on_conflict'))).toBe('`verify` has no `on_conflict` to remove');
    expect(refusal(() => drop(w, 'approve', 'on_failure'))).toBe(
      '`approve` is a gate: handlers belong on an exec node',
    );
    drop(w, 'build', 'on_failure');
    expect(refusal(() => drop(w, 'build', 'on_failure'))).toBe('`build` has no `on_failure` to remove');
  });

  it('refuses on the library', () => {
    const w = libraryWs();
    expect(refusal(() => drop(w, 'nodes.looped', 'nope'))).toMatch(/^kind `nope` is not a handler/);
    expect(refusal(() => drop(w, 'nodes.none', 'fix_loop'))).toBe('nothing at path `nodes.none`');
    expect(refusal(() => drop(w, 'nodes.looped', 'on_failure'))).toBe(
      '`nodes.looped` has no `on_failure` to remove',
    );
    expect(refusal(() => drop(w, 'tasks.maker', 'on_failure'))).toBe(
      '`tasks.maker` has no `on_failure` to remove',
    );
    expect(changed(w)).toEqual({});
  });
});
