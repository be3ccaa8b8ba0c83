import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { validateConfigSet } from '../../config/validate-set.js';
import { textsWithDraft } from '../texts.js';
import { OpRefused } from './context.js';
import { resetField, setField } from './fields.js';
import { Workspace } from './workspace.js';

const library = `
nodes:
  checked:
    kind: exec
    tasks:
      - id: work
        extends: worker
    fix_loop:
      tasks:
        - id: repair
          extends: worker
      max_attempts: 2
    escalation:
      extends: worker
    on_base_changed:
      restart_from: checked
  review_gate:
    kind: gate
    artifact: spec
    artifact_required: true
tasks:
  worker:
    kind: agent
    profile: strong
    prompt: do the work
    policy:
      time_cap_minutes: 60
  careful:
    extends: worker
    produces: spec
    prompt: do it carefully
`;

const chain = `
description: a chain
nodes:
  - id: build
    tasks:
      - id: code
        extends: careful
        model: opus
        effort: high
      - id: plain
        kind: agent
        prompt: hello
      - id: waiter
        kind: forge
        target: mr.ci
        wait:
          polling:
            initial_interval: 30s
  - id: verify
    extends: checked
    escalation:
      prompt: help
    on_base_changed:
      restart_from: build
  - id: own_obc
    kind: exec
    tasks:
      - id: t
        kind: builtin
        ref: jig.mr_rebase
    on_base_changed:
      restart_from: build
  - id: approve
    kind: gate
    artifact: spec
    artifact_required: true
    message: look
  - id: approve2
    extends: review_gate
    message: look
`;

const ws = (area: 'chains' | 'library' = 'chains') =>
  new Workspace(area, area === 'chains' ? 'main' : 'library', { library, chains: { main: chain } });

function set(w: Workspace, path: string, field: string, value: unknown) {
  const op: ChainOpOf<'set_field'> = { op: 'set_field', path, field, value };
  return setField(w, op);
}

const chainOut = (w: Workspace) => parse(w.changedTexts()['chains/main.yaml'] ?? 'null');
const nodeOut = (w: Workspace, id: string) => chainOut(w).nodes.find((n: { id: string }) => n.id === id);

function refusal(fn: () => unknown): OpRefused {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('set_field refusals', () => {
  it('refuses `id` (rename does that)', () => {
    expect(refusal(() => set(ws(), 'build', 'id', 'x')).detail).toMatch(/field `id` is changed with rename/);
  });
  it('refuses nothing at path, in a chain and in the library', () => {
    expect(refusal(() => set(ws(), 'nope.main', 'prompt', 'x')).detail).toMatch(
      /nothing at path `nope.main`/,
    );
    expect(refusal(() => set(ws('library'), 'tasks.nope', 'prompt', 'x')).detail).toMatch(
      /nothing at path `tasks.nope`/,
    );
    expect(refusal(() => set(ws('library'), '', 'description', 'x')).detail).toMatch(/nothing at path ``/);
  });
  it('refuses a dotted field through a list or a scalar, changing nothing', () => {
    const w = ws();
    expect(refusal(() => set(w, 'build.main.plain', 'prompt.x', 1)).detail).toMatch(
      /field `prompt.x` goes through `prompt`, which holds a value, not a mapping/,
    );
    expect(refusal(() => set(w, 'build', 'tasks.x', 1)).detail).toMatch(
      /goes through `tasks`, which holds a list/,
    );
    expect(w.changedTexts()).toEqual({});
  });
});

describe('set_field writing rules', () => {
  it('1: a dotted field creates the mappings it needs, a null one included', () => {
    const w = ws();
    set(w, 'build.main.plain', 'policy.time_cap_minutes', 5);
    set(w, 'build.main.waiter', 'wait.polling.max_interval', '5m');
    set(w, '', 'policy.max_attempts', 3);
    const out = chainOut(w);
    expect(out.policy).toEqual({ max_attempts: 3 });
    expect(out.nodes[0].tasks.slice(1)).toEqual([
      { id: 'plain', kind: 'agent', prompt: 'hello', policy: { time_cap_minutes: 5 } },
      {
        id: 'waiter',
        kind: 'forge',
        target: 'mr.ci',
        wait: { polling: { initial_interval: '30s', max_interval: '5m' } },
      },
    ]);
  });

  it('2: null and "" remove the key and the mappings left empty', () => {
    const w = ws();
    set(w, 'build.main.waiter', 'wait.polling.initial_interval', null);
    set(w, 'build.main.plain', 'prompt', '');
    set(w, '', 'description', null);
    const out = chainOut(w);
    expect(out.description).toBeUndefined();
    expect(out.nodes[0].tasks.slice(1)).toEqual([
      { id: 'plain', kind: 'agent' },
      { id: 'waiter', kind: 'forge', target: 'mr.ci' },
    ]);
  });

  it('2: a value equal to the inherited one (through the extends chain) is not written', () => {
    const w = ws();
    // `careful` extends `worker`: the policy comes from worker, the prompt from careful.
    set(w, 'build.main.code', 'policy.time_cap_minutes', 60);
    set(w, 'build.main.code', 'prompt', 'do it carefully');
    expect(w.changedTexts()).toEqual({});
    set(w, 'build.main.code', 'prompt', 'do the work');
    expect(nodeOut(w, 'build').tasks[0].prompt).toBe('do the work');
    set(w, 'build.main.code', 'prompt', 'do it carefully');
    expect(w.changedTexts()).toEqual({});
  });

  it('2: a key inside a node is compared with the same key of its base node', () => {
    const w = ws();
    set(w, 'verify', 'fix_loop.max_attempts', 2);
    expect(w.changedTexts()).toEqual({});
    set(w, 'verify', 'fix_loop.max_attempts', 4);
    expect(nodeOut(w, 'verify').fix_loop).toEqual({ max_attempts: 4 });
    // The escalation slot is laid over the base's, which extends `worker`.
    set(w, 'verify.escalation.escalate', 'prompt', 'do the work');
    // The slot itself stays (removing it is `remove`), holding no override.
    expect(nodeOut(w, 'verify').escalation).toEqual({});
  });

  it('2: a mapping equal to the inherited one is not written', () => {
    const w = ws();
    set(w, 'build.main.code', 'policy', { time_cap_minutes: 60 });
    expect(w.changedTexts()).toEqual({});
  });

  it('3: setting profile removes model and effort', () => {
    const w = ws();
    set(w, 'build.main.code', 'profile', 'fast');
    expect(nodeOut(w, 'build').tasks[0]).toEqual({ id: 'code', extends: 'careful', profile: 'fast' });
  });

  it('3: setting profile to the inherited one removes model, effort and profile', () => {
    const w = ws();
    set(w, 'build.main.code', 'profile', 'strong');
    expect(nodeOut(w, 'build').tasks[0]).toEqual({ id: 'code', extends: 'careful' });
  });

  it('3: setting model or effort removes profile', () => {
    const w = ws();
    set(w, 'build.main.plain', 'profile', 'strong');
    expect(nodeOut(w, 'build').tasks[1].profile).toBe('strong');
    set(w, 'build.main.plain', 'effort', 'low');
    expect(nodeOut(w, 'build').tasks[1].profile).toBeUndefined();
    expect(nodeOut(w, 'build').tasks[1].effort).toBe('low');
  });

  it('4: an empty restart_from removes on_base_changed', () => {
    const w = ws();
    set(w, 'own_obc', 'on_base_changed.restart_from', '');
    expect(nodeOut(w, 'own_obc')).not.toHaveProperty('on_base_changed');
  });

  it('4: an empty restart_from writes on_base_changed null when the base node has one', () => {
    const w = ws();
    set(w, 'verify', 'on_base_changed.restart_from', null);
    expect(nodeOut(w, 'verify').on_base_changed).toBeNull();
  });

  it('4: the same through the on_base_changed path', () => {
    const w = ws();
    set(w, 'verify.on_base_changed', 'restart_from', '');
    set(w, 'own_obc.on_base_changed', 'restart_from', null);
    expect(nodeOut(w, 'verify').on_base_changed).toBeNull();
    expect(nodeOut(w, 'own_obc')).not.toHaveProperty('on_base_changed');
  });

  it('4: an empty artifact removes artifact_required too', () => {
    const w = ws();
    set(w, 'approve', 'artifact', '');
    expect(nodeOut(w, 'approve')).toEqual({ id: 'approve', kind: 'gate', message: 'look' });
  });

  it('4: artifact_required false removes it, unless the base says true', () => {
    const w = ws();
    set(w, 'approve', 'artifact_required', false);
    set(w, 'approve2', 'artifact_required', false);
    expect(nodeOut(w, 'approve')).not.toHaveProperty('artifact_required');
    expect(nodeOut(w, 'approve2').artifact_required).toBe(false);
  });

  it('icon is set like any field', () => {
    const w = ws();
    set(w, 'build', 'icon', 'hammer');
    expect(nodeOut(w, 'build').icon).toBe('hammer');
  });

  it('a field on the tasks shorthand other than tasks makes it a step main', () => {
    const w = ws();
    set(w, 'build.main', 'description', 'the work');
    const build = nodeOut(w, 'build');
    expect(build.tasks).toBeUndefined();
    expect(build.steps).toHaveLength(1);
    expect(build.steps[0].id).toBe('main');
    expect(build.steps[0].description).toBe('the work');
    expect(build.steps[0].tasks.map((t: { id: string }) => t.id)).toEqual(['code', 'plain', 'waiter']);
  });

  it('works on the library, inheriting along the library extends chain', () => {
    const w = ws('library');
    set(w, 'tasks.careful', 'profile', 'strong');
    expect(w.changedTexts()).toEqual({});
    set(w, 'tasks.careful', 'prompt', 'do the work');
    expect(parse(w.changedTexts()['library.yaml']!).tasks.careful).toEqual({
      extends: 'worker',
      produces: 'spec',
    });
  });

  it('leaves a valid config valid', () => {
    const w = ws();
    set(w, 'build.main.plain', 'prompt', 'hi');
    set(w, 'verify', 'fix_loop.max_attempts', 3);
    const texts = textsWithDraft({ library, chains: { main: chain } }, w.changedTexts());
    const before = validateConfigSet({ library, chains: { main: chain } }).files['chains/main.yaml']!
      .problems;
    expect(before).toEqual([]);
    expect(validateConfigSet(texts).files['chains/main.yaml']!.problems).toEqual([]);
  });
});

describe('reset_field', () => {
  const reset = (w: Workspace, path: string, field?: string) =>
    resetField(w, field === undefined ? { op: 'reset_field', path } : { op: 'reset_field', path, field });

  it('refuses nothing at path', () => {
    expect(refusal(() => reset(ws(), 'nope')).detail).toMatch(/nothing at path `nope`/);
  });
  it('refuses no field on a component that extends nothing', () => {
    expect(refusal(() => reset(ws(), 'build.main.plain')).detail).toMatch(
      /`build.main.plain` extends nothing/,
    );
    expect(refusal(() => reset(ws(), 'build')).detail).toMatch(/`build` extends nothing/);
  });
  it('refuses field id', () => {
    expect(refusal(() => reset(ws(), 'build', 'id')).detail).toMatch(/field `id`/);
  });
  it('without a field removes every override but id, extends, icon, on_failure', () => {
    const w = new Workspace('chains', 'main', {
      library,
      chains: {
        main: `nodes:
  - id: verify
    extends: checked
    icon: hammer
    description: mine
    on_failure:
      tasks: [{id: r, extends: worker}]
    fix_loop: {max_attempts: 5}
    policy: {max_attempts: 1}
`,
      },
    });
    reset(w, 'verify');
    expect(nodeOut(w, 'verify')).toEqual({
      id: 'verify',
      extends: 'checked',
      icon: 'hammer',
      on_failure: { tasks: [{ id: 'r', extends: 'worker' }] },
    });
  });
  it('with a field removes that dotted key and the mappings it leaves empty', () => {
    const w = ws();
    reset(w, 'build.main.waiter', 'wait.polling.initial_interval');
    reset(w, 'build.main.code', 'model');
    reset(w, 'build.main.code', 'nothing.here');
    expect(nodeOut(w, 'build').tasks).toEqual([
      { id: 'code', extends: 'careful', effort: 'high' },
      { id: 'plain', kind: 'agent', prompt: 'hello' },
      { id: 'waiter', kind: 'forge', target: 'mr.ci' },
    ]);
  });
});
