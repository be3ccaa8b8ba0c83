import { describe, expect, it } from 'vitest';
import type { Result } from './draft-api.js';
import { chainParts, problemsIn, sourceLabel } from './shape.js';

const FILE = 'chains/x.yaml';
const choices = { ref: [], target: [], inputs: [], grants: [] };
const result = (over: Partial<Result>): Result => ({
  model: {},
  resolved: null,
  problems: [],
  sources: null,
  changes: [],
  impact: null,
  warnings: [],
  policy_values: { auto_escalate_delay_s: 0, auto_review_attempts: 0 },
  choices,
  yaml_error: null,
  ...over,
});

describe('chainParts', () => {
  it('reads the written file when the chain does not resolve: the tasks shorthand is step main', () => {
    const parts = chainParts(
      result({
        model: {
          [FILE]: {
            nodes: [
              { id: 'build', tasks: [{ id: 'run', kind: 'subprocess', policy: { budget_usd: 2 } }] },
              { id: 'ok', kind: 'gate', message: 'Look' },
            ],
          },
        },
      }),
      FILE,
    );
    expect(parts.map((p) => [p.id, p.kind, p.steps.map((s) => s.path)])).toEqual([
      ['build', 'exec', ['build.main']],
      ['ok', 'gate', []],
    ]);
    expect(parts[0]!.steps[0]!.tasks[0]).toMatchObject({
      path: 'build.main.run',
      kind: 'subprocess',
      fields: {
        kind: { value: 'subprocess', source: 'chain' },
        'policy.budget_usd': { value: 2, source: 'chain' },
      },
    });
    expect(parts[1]!.fields.message).toEqual({ value: 'Look', source: 'chain' });
  });

  it('reads the resolved chain with its sources when it resolves', () => {
    const parts = chainParts(
      result({
        resolved: {
          nodes: [
            {
              id: 'impl',
              kind: 'exec',
              extends: 'implementation',
              path: 'impl',
              on_failure: { steps: [] },
              steps: [
                { id: 'main', path: 'impl.main', tasks: [{ id: 'a', kind: 'agent', path: 'impl.main.a' }] },
              ],
            },
          ],
        },
        sources: {
          impl: { kind: { value: 'exec', source: 'library:nodes.implementation' } },
          'impl.main.a': { harness: { value: 'claude', source: 'library:tasks.implementer' } },
        },
      }),
      FILE,
    );
    expect(parts[0]).toMatchObject({ extends: 'implementation', handlers: ['on_failure'] });
    expect(parts[0]!.fields).toEqual({ kind: { value: 'exec', source: 'library:nodes.implementation' } });
    expect(parts[0]!.steps[0]!.tasks[0]!.fields).toEqual({
      harness: { value: 'claude', source: 'library:tasks.implementer' },
    });
  });
});

describe('handlers and slots', () => {
  it("reads each handler's steps and the slot tasks at the paths the server gives them", () => {
    const parts = chainParts(
      result({
        model: {
          [FILE]: {
            nodes: [
              {
                id: 'build',
                tasks: [{ id: 'make', kind: 'subprocess' }],
                fix_loop: { tasks: [{ id: 'repair', kind: 'agent' }], judge: { id: 'judge', kind: 'agent' } },
                escalation: { kind: 'agent' },
                on_base_changed: {
                  on_conflict: { steps: [{ id: 'fix', tasks: [{ id: 'merge', kind: 'agent' }] }] },
                },
              },
              { id: 'ok', kind: 'gate', auto_review: { id: 'reviewer', kind: 'agent' } },
            ],
          },
        },
      }),
      FILE,
    );
    const [build, ok] = parts;
    expect(
      build!.handlerParts.map((h) => [h.kind, h.path, h.steps.flatMap((st) => st.tasks.map((t) => t.path))]),
    ).toEqual([
      ['fix_loop', 'build.fix_loop', ['build.fix_loop.main.repair']],
      ['on_conflict', 'build.on_base_changed.on_conflict', ['build.on_base_changed.on_conflict.fix.merge']],
    ]);
    expect(build!.slots.map((t) => [t.slot, t.path])).toEqual([
      ['judge', 'build.fix_loop.judge'],
      ['escalation', 'build.escalation.escalate'],
    ]);
    // The judge is a slot, not a field of the node.
    expect(Object.keys(build!.fields)).toEqual([]);
    expect(ok!.slots.map((t) => [t.slot, t.path])).toEqual([['auto_review', 'ok.auto_review']]);
  });
});

describe('problems and sources', () => {
  it('counts a node’s own problems and those under it, not a sibling whose id starts the same', () => {
    const p = (path: string) => ({ path, field: null, message: 'm', file: FILE, line: 1, col: 1 });
    expect(problemsIn([p('lint'), p('lint.main.x'), p('linter'), p('build')], 'lint')).toHaveLength(2);
  });
  it('names where a value comes from', () => {
    expect(['chain', 'library:tasks.x', 'policy', 'default'].map(sourceLabel)).toEqual([
      'set here',
      'from library tasks.x',
      'from policy',
      'default',
    ]);
  });
});
