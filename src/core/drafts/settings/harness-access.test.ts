import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { AccessState } from '../../../contract/drafts/harness-ops.js';
import { apply, at, docOf, resultOf, texts, workspace } from '../../../../test/helpers/harness-settings.js';
import { refusal } from '../../../../test/helpers/structure-ops.js';
import { accessLists, accessState } from './harness-docs.js';

const ALL = [
  'claude',
  'codex',
  'gemini',
  'cursor',
  'opencode',
  'kilo',
  'qwen',
  'copilot',
  'droid',
  'amp',
  'antigravity',
  'auggie',
];
const ALLX = ALL.filter((h) => h !== 'codex');

/** A small policy.yaml with the two lists (null: absent). */
function policy(d: string[] | null, m: string[] | null, more: Record<string, unknown> = {}): string {
  const doc: Record<string, unknown> = { max_concurrent: 3 };
  if (d) doc.defaults = { allowed_harnesses: d };
  if (m) doc.maxima = { allowed_harnesses: m };
  return stringify({ ...doc, ...more });
}

type Lists = { defaults: unknown; maxima: unknown };
const listsOf = (ws: ReturnType<typeof workspace>): Lists => {
  const p = docOf(ws, 'policy.yaml');
  return {
    defaults: at(p, 'defaults.allowed_harnesses') ?? null,
    maxima: at(p, 'maxima.allowed_harnesses') ?? null,
  };
};
const statesOf = (ws: ReturnType<typeof workspace>): Record<string, AccessState> => {
  const lists = accessLists(ws.doc('policy.yaml'));
  return Object.fromEntries(ALL.map((h) => [h, accessState(h, lists)]));
};

describe('accessState', () => {
  it('reads the two lists as the spec states them', () => {
    const both = { defaults: ['a'], maxima: ['a', 'b'] };
    expect(['a', 'b', 'c'].map((h) => accessState(h, both))).toEqual(['available', 'override', 'never']);
    expect(accessState('x', { defaults: null, maxima: null })).toBe('available');
    expect(accessState('x', { defaults: ['a'], maxima: null })).toBe('override');
    expect(accessState('x', { defaults: null, maxima: ['a'] })).toBe('never');
    // In defaults but past the maxima: the maxima win.
    expect(accessState('a', { defaults: ['a'], maxima: [] })).toBe('never');
  });
});

describe('set_access: the nine transitions with both lists written', () => {
  // codex starts in each state; claude is available, gemini override, the rest never.
  const start: Record<AccessState, [string[], string[]]> = {
    available: [
      ['claude', 'codex'],
      ['claude', 'codex', 'gemini'],
    ],
    override: [['claude'], ['claude', 'codex', 'gemini']],
    never: [['claude'], ['claude', 'gemini']],
  };
  const expected: Record<AccessState, Record<AccessState, Lists>> = {
    available: {
      available: { defaults: ['claude', 'codex'], maxima: ['claude', 'codex', 'gemini'] },
      override: { defaults: ['claude'], maxima: ['claude', 'codex', 'gemini'] },
      never: { defaults: ['claude'], maxima: ['claude', 'gemini'] },
    },
    override: {
      available: { defaults: ['claude', 'codex'], maxima: ['claude', 'codex', 'gemini'] },
      override: { defaults: ['claude'], maxima: ['claude', 'codex', 'gemini'] },
      never: { defaults: ['claude'], maxima: ['claude', 'gemini'] },
    },
    never: {
      available: { defaults: ['claude', 'codex'], maxima: ['claude', 'gemini', 'codex'] },
      override: { defaults: ['claude'], maxima: ['claude', 'gemini', 'codex'] },
      never: { defaults: ['claude'], maxima: ['claude', 'gemini'] },
    },
  };
  for (const from of ['available', 'override', 'never'] as const) {
    for (const to of ['available', 'override', 'never'] as const) {
      it(`${from} -> ${to}`, () => {
        const [d, m] = start[from];
        const base = texts({ policy: policy(d, m) });
        const ws = workspace(base);
        const was = statesOf(ws);
        expect(was.codex).toBe(from);
        expect(apply(ws, { op: 'set_access', harness: 'codex', state: to })).toEqual([undefined]);
        expect(listsOf(ws)).toEqual(expected[from][to]);
        expect(statesOf(ws)).toEqual({ ...was, codex: to });
        // A state already held writes nothing.
        expect(Object.keys(ws.changedTexts())).toEqual(from === to ? [] : ['policy.yaml']);
        expect(resultOf(ws, base).problems).toEqual([]);
      });
    }
  }
});

describe('set_access: the nine transitions with lists absent', () => {
  // codex starts in each state with the fewest lists that say it; every other harness is available.
  const start: Record<AccessState, [string[] | null, string[] | null]> = {
    available: [null, null],
    override: [ALLX, null],
    never: [null, ALLX],
  };
  const expected: Record<AccessState, Record<AccessState, Lists>> = {
    available: {
      available: { defaults: null, maxima: null },
      override: { defaults: ALLX, maxima: null },
      never: { defaults: ALLX, maxima: ALLX },
    },
    override: {
      available: { defaults: [...ALLX, 'codex'], maxima: null },
      override: { defaults: ALLX, maxima: null },
      never: { defaults: ALLX, maxima: ALLX },
    },
    never: {
      available: { defaults: null, maxima: [...ALLX, 'codex'] },
      override: { defaults: ALLX, maxima: [...ALLX, 'codex'] },
      // Already never, but only the maxima said so: the defaults list is written too.
      never: { defaults: ALLX, maxima: ALLX },
    },
  };
  for (const from of ['available', 'override', 'never'] as const) {
    for (const to of ['available', 'override', 'never'] as const) {
      it(`${from} -> ${to}`, () => {
        const [d, m] = start[from];
        const base = texts({ policy: policy(d, m) });
        const ws = workspace(base);
        expect(statesOf(ws)).toEqual({
          ...Object.fromEntries(ALL.map((h) => [h, 'available'])),
          codex: from,
        });
        apply(ws, { op: 'set_access', harness: 'codex', state: to });
        expect(listsOf(ws)).toEqual(expected[from][to]);
        expect(statesOf(ws)).toEqual({ ...Object.fromEntries(ALL.map((h) => [h, 'available'])), codex: to });
        expect(resultOf(ws, base).problems).toEqual([]);
      });
    }
  }

  it('never on the seeded policy.yaml (no defaults or maxima) writes both lists with every other harness', () => {
    const ws = workspace();
    apply(ws, { op: 'set_access', harness: 'gemini', state: 'never' });
    const others = ALL.filter((h) => h !== 'gemini');
    expect(listsOf(ws)).toEqual({ defaults: others, maxima: others });
    expect(docOf(ws, 'policy.yaml').max_concurrent).toBe(3);
  });

  it('a missing defaults list copies only the known harnesses of the maxima', () => {
    const ws = workspace(texts({ policy: policy(null, ['claude', 'ghost', 'codex']) }));
    apply(ws, { op: 'set_access', harness: 'codex', state: 'override' });
    expect(listsOf(ws)).toEqual({ defaults: ['claude'], maxima: ['claude', 'ghost', 'codex'] });
  });

  it('creates policy.yaml when there is none', () => {
    const base = { ...texts(), policy: null };
    const ws = workspace(base);
    apply(ws, { op: 'set_access', harness: 'amp', state: 'override' });
    expect(docOf(ws, 'policy.yaml')).toEqual({
      defaults: { allowed_harnesses: ALL.filter((h) => h !== 'amp') },
    });
  });
});

describe('set_access refusals', () => {
  it('refuses a harness not in harnesses.yaml', () => {
    expect(refusal(() => apply(workspace(), { op: 'set_access', harness: 'ghost', state: 'never' }))).toBe(
      'harness `ghost` is not in harnesses.yaml',
    );
  });
  it('refuses a bad state', () => {
    expect(
      refusal(() => apply(workspace(), { op: 'set_access', harness: 'codex', state: 'sometimes' })),
    ).toBe('state `sometimes` is not one of `available`, `override`, `never`');
  });
  it('refuses a state that is not text, and a missing harness', () => {
    expect(refusal(() => apply(workspace(), { op: 'set_access', harness: 'codex', state: 1 }))).toMatch(
      /^state: /,
    );
    expect(refusal(() => apply(workspace(), { op: 'set_access', state: 'never' }))).toMatch(/^harness: /);
  });
  it('refuses a policy.yaml whose block or list has another shape', () => {
    const notMap = workspace(texts({ policy: 'defaults: [a]\n' }));
    expect(refusal(() => apply(notMap, { op: 'set_access', harness: 'codex', state: 'never' }))).toBe(
      'policy.yaml `defaults` is not a mapping',
    );
    const notList = workspace(texts({ policy: 'maxima:\n  allowed_harnesses: claude\n' }));
    expect(refusal(() => apply(notList, { op: 'set_access', harness: 'codex', state: 'never' }))).toBe(
      'policy.yaml `maxima.allowed_harnesses` is not a list',
    );
  });
});

describe('set_allowed_tools', () => {
  it('sets maxima.allowed_tools beside the other maxima, and null removes it', () => {
    const ws = workspace(texts({ policy: policy(null, ['claude']) }));
    apply(ws, { op: 'set_allowed_tools', tools: ['Read', 'Grep'] });
    expect(docOf(ws, 'policy.yaml').maxima).toEqual({
      allowed_harnesses: ['claude'],
      allowed_tools: ['Read', 'Grep'],
    });
    apply(ws, { op: 'set_allowed_tools', tools: null });
    expect(docOf(ws, 'policy.yaml').maxima).toEqual({ allowed_harnesses: ['claude'] });
  });
  it('an empty list is kept (no tool at all); removing the last maximum drops the block', () => {
    const ws = workspace();
    apply(ws, { op: 'set_allowed_tools', tools: [] });
    expect(docOf(ws, 'policy.yaml').maxima).toEqual({ allowed_tools: [] });
    apply(ws, { op: 'set_allowed_tools', tools: null });
    expect(Object.hasOwn(docOf(ws, 'policy.yaml'), 'maxima')).toBe(false);
    expect(ws.changedTexts()).toEqual({});
  });
  it('refuses tools that are neither a list nor null', () => {
    const msg = 'tools: must be a list of tool names, or null to remove the list';
    expect(refusal(() => apply(workspace(), { op: 'set_allowed_tools', tools: 'Read' }))).toBe(msg);
    expect(refusal(() => apply(workspace(), { op: 'set_allowed_tools' }))).toBe(msg);
    expect(refusal(() => apply(workspace(), { op: 'set_allowed_tools', tools: [1] }))).toBe(msg);
  });
});

describe('set_escalation', () => {
  it('sets defaults.escalation_harness and escalation_grants; null removes each', () => {
    const ws = workspace();
    apply(ws, { op: 'set_escalation', harness: 'item', grants: ['git-commit'] });
    expect(docOf(ws, 'policy.yaml').defaults).toEqual({
      escalation_harness: 'item',
      escalation_grants: ['git-commit'],
    });
    apply(ws, { op: 'set_escalation', harness: 'codex', grants: null });
    expect(docOf(ws, 'policy.yaml').defaults).toEqual({ escalation_harness: 'codex' });
    apply(ws, { op: 'set_escalation', harness: null, grants: null });
    expect(Object.hasOwn(docOf(ws, 'policy.yaml'), 'defaults')).toBe(false);
  });
  it('an unknown harness is a problem of policy.yaml, not a refusal', () => {
    const ws = workspace();
    apply(ws, { op: 'set_escalation', harness: 'ghost', grants: [] });
    expect(resultOf(ws).problems.map((p) => [p.path, p.field, p.message])).toEqual([
      ['defaults', 'escalation_harness', 'harness `ghost` is not in harnesses.yaml (or `item`)'],
    ]);
  });
  it('refuses a harness that is not text or null, and grants that are not a list or null', () => {
    expect(refusal(() => apply(workspace(), { op: 'set_escalation', harness: 1, grants: null }))).toBe(
      'harness: must be a harness id, `item`, or null to remove it',
    );
    expect(
      refusal(() => apply(workspace(), { op: 'set_escalation', harness: null, grants: 'git-push' })),
    ).toBe('grants: must be a list of grant names, or null to remove them');
    expect(refusal(() => apply(workspace(), { op: 'set_escalation', harness: null }))).toBe(
      'grants: must be a list of grant names, or null to remove them',
    );
  });
});
