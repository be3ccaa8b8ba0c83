import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfigSet } from '../../config/validate-set.js';
import { textsWithDraft } from '../texts.js';
import { changeBase, extend } from './bases.js';
import { OpRefused } from './context.js';
import { Workspace } from './workspace.js';

const library = `
nodes:
  worker_node:
    kind: exec
    description: does work
    tasks:
      - id: work
        extends: worker
    fix_loop:
      tasks:
        - id: fix
          extends: worker
      max_attempts: 2
    policy:
      max_attempts: 3
      time_cap_minutes: 30
  derived:
    extends: worker_node
    description: derived work
  review:
    kind: gate
    message: look at it
  loop_a:
    extends: loop_b
  loop_b:
    kind: exec
    tasks:
      - id: w
        extends: worker
tasks:
  worker:
    kind: agent
    prompt: do the work
`;

const chain = `nodes:
  - id: build
    kind: exec
    description: my build
    icon: hammer
    tasks:
      - id: code
        extends: worker
    on_failure: null
    fix_loop:
      tasks:
        - id: fix
          extends: worker
    escalation:
      extends: worker
    policy:
      max_attempts: 3
      time_cap_minutes: 60
  - id: approve
    kind: gate
    description: looks
    reject_to: build
    message: look at it
    artifact_required: false
  - id: steps_only
    steps:
      - id: s
        tasks: []
    on_failure: null
  - id: spare
    extends: review
    on_failure: null
`;

const ws = (area: 'chains' | 'library' = 'chains') =>
  new Workspace(area, area === 'chains' ? 'main' : 'library', { library, chains: { main: chain } });
const nodeOut = (w: Workspace, id: string) =>
  parse(w.changedTexts()['chains/main.yaml']!).nodes.find((n: { id: string }) => n.id === id);

function refusal(fn: () => unknown): OpRefused {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('extend', () => {
  it('refuses a base the library does not have', () => {
    expect(refusal(() => extend(ws(), { op: 'extend', node: 'build', base: 'nope' })).detail).toMatch(
      /the library has no node `nope`/,
    );
    expect(refusal(() => extend(ws(), { op: 'extend', node: 'build', base: 'worker' })).detail).toMatch(
      /the library has no node `worker`/,
    );
  });
  it('refuses nothing at node, and a path that is not a node', () => {
    expect(refusal(() => extend(ws(), { op: 'extend', node: 'nope', base: 'derived' })).detail).toMatch(
      /nothing at path `nope`/,
    );
    expect(
      refusal(() => extend(ws(), { op: 'extend', node: 'build.main.code', base: 'derived' })).detail,
    ).toMatch(/`build.main.code` is not a node/);
  });
  it('refuses a library node extending itself or its own descendant', () => {
    const lw = ws('library');
    expect(
      refusal(() => extend(lw, { op: 'extend', node: 'nodes.derived', base: 'derived' })).detail,
    ).toMatch(/`derived` cannot extend itself/);
    expect(
      refusal(() => extend(lw, { op: 'extend', node: 'nodes.worker_node', base: 'derived' })).detail,
    ).toMatch(/`worker_node` cannot extend `derived`: worker_node → derived → worker_node is a cycle/);
    expect(refusal(() => extend(lw, { op: 'extend', node: 'nodes.loop_b', base: 'loop_a' })).detail).toMatch(
      /cycle/,
    );
  });
  it('drops kind, steps (the shorthand counts), on_failure and fix_loop; answers those that held something', () => {
    const w = ws();
    expect(extend(w, { op: 'extend', node: 'build', base: 'derived' })).toEqual({
      dropped: ['steps', 'fix_loop'],
    });
    expect(nodeOut(w, 'build')).toEqual({
      id: 'build',
      extends: 'derived',
      description: 'my build',
      icon: 'hammer',
      escalation: { extends: 'worker' },
      policy: { max_attempts: 3, time_cap_minutes: 60 },
    });
    expect(extend(w, { op: 'extend', node: 'steps_only', base: 'derived' })).toEqual({ dropped: ['steps'] });
    expect(nodeOut(w, 'steps_only')).toEqual({ id: 'steps_only', extends: 'derived' });
    expect(
      validateConfigSet(textsWithDraft({ library, chains: { main: chain } }, w.changedTexts())).problems,
    ).toEqual([]);
  });
  it('replaces an extends in place, and works on a library node', () => {
    const w = ws();
    expect(extend(w, { op: 'extend', node: 'spare', base: 'derived' })).toEqual({ dropped: [] });
    expect(nodeOut(w, 'spare')).toEqual({ id: 'spare', extends: 'derived' });
    const lw = ws('library');
    expect(extend(lw, { op: 'extend', node: 'nodes.loop_b', base: 'derived' })).toEqual({
      dropped: ['steps'],
    });
    expect(parse(lw.changedTexts()['library.yaml']!).nodes.loop_b).toEqual({ extends: 'derived' });
  });
});

describe('change_base', () => {
  it('refuses a base the library does not have, and nothing at node', () => {
    expect(
      refusal(() => changeBase(ws(), { op: 'change_base', node: 'build', base: 'nope' })).detail,
    ).toMatch(/the library has no node `nope`/);
    expect(
      refusal(() => changeBase(ws(), { op: 'change_base', node: 'nope', base: 'review' })).detail,
    ).toMatch(/nothing at path `nope`/);
  });
  it('over an exec base: keeps what differs, drops kind and what equals the base, key by key in mappings', () => {
    const w = ws();
    expect(changeBase(w, { op: 'change_base', node: 'build', base: 'derived' })).toEqual({
      kept: ['description', 'icon', 'tasks', 'escalation', 'policy'],
      dropped: [
        { key: 'kind', why: 'same as the new base' },
        { key: 'on_failure', why: 'the new base has no `on_failure` to remove' },
        { key: 'fix_loop.tasks', why: 'same as the new base' },
        { key: 'policy.max_attempts', why: 'same as the new base' },
      ],
    });
    expect(nodeOut(w, 'build')).toEqual({
      id: 'build',
      extends: 'derived',
      description: 'my build',
      icon: 'hammer',
      tasks: [{ id: 'code', extends: 'worker' }],
      escalation: { extends: 'worker' },
      policy: { time_cap_minutes: 60 },
    });
  });
  it('over a gate base: drops exec keys; over an exec base: drops gate keys', () => {
    const w = ws();
    expect(changeBase(w, { op: 'change_base', node: 'build', base: 'review' })).toEqual({
      kept: ['description', 'policy'],
      dropped: [
        { key: 'kind', why: 'a node takes its kind from its base, a gate node' },
        { key: 'icon', why: 'the new base is a gate, which takes no `icon`' },
        { key: 'tasks', why: 'the new base is a gate, which takes no `tasks`' },
        { key: 'on_failure', why: 'the new base is a gate, which takes no `on_failure`' },
        { key: 'fix_loop', why: 'the new base is a gate, which takes no `fix_loop`' },
        { key: 'escalation', why: 'the new base is a gate, which takes no `escalation`' },
      ],
    });
    expect(changeBase(w, { op: 'change_base', node: 'approve', base: 'worker_node' })).toEqual({
      kept: ['description'],
      dropped: [
        { key: 'kind', why: 'a node takes its kind from its base, an exec node' },
        { key: 'reject_to', why: 'the new base is an exec node, which takes no `reject_to`' },
        { key: 'message', why: 'the new base is an exec node, which takes no `message`' },
        { key: 'artifact_required', why: 'the new base is an exec node, which takes no `artifact_required`' },
      ],
    });
    expect(nodeOut(w, 'approve')).toEqual({ id: 'approve', extends: 'worker_node', description: 'looks' });
  });
  it('keeps a null that removes a handler the new base has, and drops a gate key equal to the base', () => {
    const w = ws();
    const chain2 = 'nodes:\n  - id: n\n    extends: loop_b\n    fix_loop: null\n';
    const w2 = new Workspace('chains', 'main', { library, chains: { main: chain2 } });
    expect(changeBase(w2, { op: 'change_base', node: 'n', base: 'derived' })).toEqual({
      kept: ['fix_loop'],
      dropped: [],
    });
    expect(nodeOut(w2, 'n')).toEqual({ id: 'n', extends: 'derived', fix_loop: null });
    expect(changeBase(w, { op: 'change_base', node: 'approve', base: 'review' }).dropped).toContainEqual({
      key: 'message',
      why: 'same as the new base',
    });
  });
});
