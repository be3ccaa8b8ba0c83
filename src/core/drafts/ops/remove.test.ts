import { describe, expect, it } from 'vitest';
import {
  changed,
  CHAIN_FILE,
  chainWs,
  libAt,
  libraryWs,
  nodeIds,
  nodeOf,
  problemsOf,
  refusal,
  reload,
} from '../../../../test/helpers/structure-ops.js';
import { addTask } from './add-task.js';
import { remove } from './remove.js';
import type { Workspace } from './workspace.js';

const rm = (w: Workspace, path: string) => remove(w, { op: 'remove', path });

describe('remove on a chain', () => {
  it('removes a node, answering each reject_to and restart_from left naming it', () => {
    const w = chainWs();
    expect(rm(w, 'build')).toEqual({
      broken: [
        { path: 'verify', field: 'on_base_changed.restart_from' },
        { path: 'check', field: 'reject_to' },
      ],
    });
    expect(nodeIds(w)).toEqual(['spec', 'approve', 'verify', 'looped', 'check']);
    expect(problemsOf(reload(w))).toEqual([
      'chains/work.yaml verify.on_base_changed.restart_from: on_base_changed.restart_from `build`: no node has that id',
      'chains/work.yaml check.reject_to: reject_to `build`: no node has that id',
    ]);
  });

  it('removes a gate, and a node nothing names', () => {
    const w = chainWs();
    expect(rm(w, 'approve')).toEqual({ broken: [] });
    expect(rm(w, 'looped')).toEqual({ broken: [] });
    expect(nodeIds(w)).toEqual(['spec', 'build', 'verify', 'check']);
    expect(rm(w, 'spec')).toEqual({ broken: [] });
    expect(problemsOf(reload(w))).toEqual([]);
  });

  it('removes a step, a task, and step `main` of the shorthand (the node’s tasks)', () => {
    const w = chainWs();
    expect(rm(w, 'verify.lint')).toEqual({ broken: [] });
    expect(rm(w, 'verify.unit.run')).toEqual({ broken: [] });
    expect(rm(w, 'spec.main')).toEqual({ broken: [] });
    expect(nodeOf(w, 'verify')).toMatchObject({ steps: [{ id: 'unit', tasks: [] }] });
    expect(nodeOf(w, 'spec')).toEqual({ id: 'spec', kind: 'exec' });
  });

  it('deletes handlers and slot tasks the node writes itself', () => {
    const w = chainWs();
    addTask(w, { op: 'add_task', slot: 'judge', node: 'verify', kind: 'agent' });
    addTask(w, { op: 'add_task', slot: 'escalation', node: 'verify', kind: 'agent' });
    addTask(w, { op: 'add_task', slot: 'auto_review', node: 'approve', kind: 'agent' });
    expect(rm(w, 'verify.fix_loop.judge')).toEqual({ broken: [] });
    expect(rm(w, 'verify.escalation.escalate')).toEqual({ broken: [] });
    expect(rm(w, 'approve.auto_review')).toEqual({ broken: [] });
    expect(nodeOf(w, 'verify')).toMatchObject({ fix_loop: { tasks: [{ id: 'fix' }] } });
    expect(nodeOf(w, 'verify')).not.toHaveProperty('escalation');
    expect(nodeOf(w, 'approve')).not.toHaveProperty('auto_review');
    expect(rm(w, 'verify.fix_loop')).toEqual({ broken: [] });
    expect(nodeOf(w, 'verify')).not.toHaveProperty('fix_loop');
    expect(rm(w, 'verify.on_base_changed')).toEqual({ broken: [] });
    expect(nodeOf(w, 'verify')).not.toHaveProperty('on_base_changed');
  });

  it('writes null over handlers and slot tasks a library node supplies', () => {
    const w = chainWs();
    expect(rm(w, 'build.on_failure')).toEqual({ broken: [] });
    expect(rm(w, 'build.fix_loop')).toEqual({ broken: [] });
    expect(rm(w, 'build.escalation.escalate')).toEqual({ broken: [] });
    expect(rm(w, 'looped.on_base_changed.on_conflict')).toEqual({ broken: [] });
    expect(rm(w, 'check.auto_review')).toEqual({ broken: [] });
    expect(nodeOf(w, 'build')).toEqual({
      id: 'build',
      extends: 'builder',
      on_failure: null,
      fix_loop: null,
      escalation: null,
    });
    expect(nodeOf(w, 'looped')).toEqual({
      id: 'looped',
      extends: 'looped',
      on_base_changed: { on_conflict: null },
    });
    expect(nodeOf(w, 'check')).toEqual({
      id: 'check',
      extends: 'review_gate',
      reject_to: 'build',
      auto_review: null,
    });
    const set = reload(w);
    expect(problemsOf(set)).toEqual([]);
    const build = set.chains.work?.resolved?.nodes.find((n) => n.id === 'build');
    expect(Object.keys(build ?? {}).sort()).toEqual([
      'description',
      'extends',
      'id',
      'kind',
      'path',
      'steps',
    ]);
  });

  it('writes null over an inherited handler the node overrides', () => {
    const w = chainWs();
    addTask(w, { op: 'add_task', slot: 'judge', node: 'build', kind: 'agent' });
    expect(nodeOf(w, 'build')).toMatchObject({ fix_loop: { judge: { id: 'judge' } } });
    expect(rm(w, 'build.fix_loop')).toEqual({ broken: [] });
    expect(nodeOf(w, 'build')).toEqual({ id: 'build', extends: 'builder', fix_loop: null });
  });

  it('refuses nothing at path, an inherited component already removed, and the chain itself', () => {
    const w = chainWs();
    expect(refusal(() => rm(w, 'nowhere'))).toBe('nothing at path `nowhere`');
    expect(refusal(() => rm(w, 'verify.unit.nope'))).toBe('nothing at path `verify.unit.nope`');
    expect(refusal(() => rm(w, 'spec.fix_loop'))).toBe('nothing at path `spec.fix_loop`');
    expect(refusal(() => rm(w, 'build.escalation.other'))).toBe('nothing at path `build.escalation.other`');
    expect(refusal(() => rm(w, 'approve.auto_review'))).toBe('nothing at path `approve.auto_review`');
    expect(refusal(() => rm(w, ''))).toBe('path "" is the chain: remove it with delete_chain');
    expect(changed(w)).toEqual({});
    rm(w, 'build.on_failure');
    expect(refusal(() => rm(w, 'build.on_failure'))).toBe('nothing at path `build.on_failure`');
  });
});

describe('remove on the library', () => {
  it('removes a node, answering each extends naming it in the library and the chains', () => {
    const w = libraryWs();
    expect(rm(w, 'nodes.builder')).toEqual({
      broken: [
        { file: 'library.yaml', path: 'nodes.derived', field: 'extends' },
        { file: CHAIN_FILE, path: 'build', field: 'extends' },
      ],
    });
    expect(libAt(w, 'nodes.builder')).toBeUndefined();
    // Only the library changed; the chain is left dangling, as a problem.
    expect(Object.keys(changed(w))).toEqual(['library.yaml']);
    expect(problemsOf(reload(w))).toContain(
      'chains/work.yaml build.extends: extends `builder`: no library node has that name',
    );
  });

  it('removes a task, a step and a steering entry, answering their users', () => {
    const w = libraryWs();
    expect(rm(w, 'tasks.helper')).toEqual({
      broken: [
        { file: 'library.yaml', path: 'nodes.builder.escalation.escalate', field: 'extends' },
        {
          file: 'library.yaml',
          path: 'nodes.looped.on_base_changed.on_conflict.main.resolve',
          field: 'extends',
        },
      ],
    });
    expect(rm(w, 'steps.lint')).toEqual({
      broken: [{ file: CHAIN_FILE, path: 'verify.lint', field: 'extends' }],
    });
    expect(rm(w, 'steering.house')).toEqual({
      broken: [{ file: 'library.yaml', path: 'tasks.author', field: 'steering' }],
    });
    expect(rm(w, 'tasks.reviewer')).toEqual({
      broken: [{ file: 'library.yaml', path: 'nodes.review_gate.auto_review', field: 'extends' }],
    });
    expect(libAt(w, 'tasks.helper')).toBeUndefined();
    expect(libAt(w, 'steps')).toEqual({});
    expect(libAt(w, 'steering')).toEqual({});
  });

  it('removes what is inside a library component, answering nothing', () => {
    const w = libraryWs();
    expect(rm(w, 'nodes.looped.check.test')).toEqual({ broken: [] });
    expect(rm(w, 'nodes.looped.fix_loop.judge')).toEqual({ broken: [] });
    expect(rm(w, 'nodes.builder.main')).toEqual({ broken: [] });
    expect(rm(w, 'nodes.derived.fix_loop')).toEqual({ broken: [] });
    expect(libAt(w, 'nodes.looped.steps')).toEqual([{ id: 'check', tasks: [] }]);
    expect(libAt(w, 'nodes.looped.fix_loop')).toEqual({ tasks: [{ id: 'repair', extends: 'maker' }] });
    expect(libAt(w, 'nodes.builder')).not.toHaveProperty('tasks');
    expect(libAt(w, 'nodes.derived')).toEqual({
      extends: 'builder',
      description: 'Builds more.',
      fix_loop: null,
    });
  });

  it('refuses nothing at path', () => {
    const w = libraryWs();
    expect(refusal(() => rm(w, 'nodes.none'))).toBe('nothing at path `nodes.none`');
    expect(refusal(() => rm(w, 'tasks'))).toBe('nothing at path `tasks`');
    expect(refusal(() => rm(w, 'nodes.looped.on_failure'))).toBe('nothing at path `nodes.looped.on_failure`');
    expect(changed(w)).toEqual({});
  });
});
