import { describe, expect, it } from 'vitest';
import { SEEDED, textsWith } from '../../../../test/helpers/policy-settings.js';
import { validateConfigSet } from '../../config/validate-set.js';
import { policyPreview } from './policy-preview.js';

const unset = { value: null, source: 'default', maximum: null, exceeds: false };

describe('policyPreview', () => {
  it("answers the quick-task chain's scopes under the set's policy", () => {
    const set = validateConfigSet(
      textsWith(`${SEEDED.policy}\nmaxima:\n  tasks:\n    time_cap_minutes: 100\n`),
    );
    const p = policyPreview(set, 'quick-task');
    if ('refused' in p) throw new Error(p.refused);
    expect(p.chain).toBe('quick-task');
    expect(p.scopes.map((s) => [s.path, s.kind, s.level])).toEqual([
      ['quick-task', 'chain', 'work_item'],
      ['implementation', 'node', 'nodes'],
      ['implementation.main', 'step', 'steps'],
      ['implementation.main.implement', 'task', 'tasks'],
      ['verify', 'node', 'nodes'],
      ['verify.main', 'step', 'steps'],
      ['verify.main.verify', 'task', 'tasks'],
    ]);
    expect(p.scopes[3]?.caps).toEqual({
      time_cap_minutes: {
        value: 120,
        source: 'library:tasks.implementer',
        maximum: { value: 100, level: 'maxima.tasks' },
        exceeds: true,
      },
      total_time_cap_minutes: unset,
      token_budget: unset,
      budget_usd: unset,
    });
  });

  it('refuses, in order: a library that does not load, an unknown chain, a policy that does not load, a chain that does not resolve', () => {
    expect(
      policyPreview(validateConfigSet({ ...textsWith(undefined), library: 'nodes: [' }), 'default'),
    ).toMatchObject({
      refused: 'library_not_loaded',
    });
    expect(policyPreview(validateConfigSet({ ...textsWith(undefined), library: null }), 'default')).toEqual({
      refused: 'library_not_loaded',
      reason: 'library.yaml is missing',
    });
    expect(policyPreview(validateConfigSet(textsWith(undefined)), 'nope')).toEqual({
      refused: 'chain_unknown',
    });
    const badPolicy = policyPreview(validateConfigSet(textsWith('max_concurrent: 0\n')), 'default');
    expect(badPolicy).toMatchObject({ refused: 'policy_not_loaded' });
    expect('reason' in badPolicy && badPolicy.reason).toMatch(/^policy\.yaml:1:17: max_concurrent: /);
    const broken = 'nodes:\n  - id: build\n    extends: no_such_node\n';
    expect(policyPreview(validateConfigSet(textsWith(undefined, { broken })), 'broken')).toMatchObject({
      refused: 'chain_unresolved',
    });
  });
});
