import { describe, expect, it } from 'vitest';
import { formatProblem } from '../src/contract/problems.js';
import { chainSources } from '../src/core/chain/sources.js';
import { validateConfigSet } from '../src/core/config/validate-set.js';
import { capScopes } from '../src/core/policy/caps.js';
import { loopLimits } from '../src/core/policy/loops.js';
import { DEFAULTS, readConfigDir } from './config-helpers.js';

describe('the seeded config files (defaults/config)', () => {
  const set = validateConfigSet(readConfigDir(DEFAULTS));

  it('load with zero problems and zero warnings', () => {
    expect(set.problems.map(formatProblem)).toEqual([]);
    expect(set.warnings.map(formatProblem)).toEqual([]);
  });

  it('give every file a model and resolve every chain', () => {
    for (const [file, f] of Object.entries(set.files)) expect(f.model, file).not.toBeNull();
    expect(Object.keys(set.chains).sort()).toEqual(['default', 'manual', 'merge-request', 'quick-task']);
    for (const c of Object.values(set.chains)) expect(c.resolved, c.id).not.toBeNull();
  });

  it('expand the library node of the default chain with canonical paths', () => {
    const chain = set.chains.default!.resolved!;
    const verification = chain.nodes.find((n) => n.id === 'verification')!;
    expect(verification.kind).toBe('exec');
    if (verification.kind !== 'exec') return;
    expect(verification.steps.map((s) => s.path)).toEqual(['verification.tests', 'verification.review']);
    expect(verification.steps[1]!.tasks[0]).toMatchObject({
      path: 'verification.review.code_review',
      kind: 'agent',
      skill: 'jig:code-review',
      extends: 'code_review',
    });
    expect(verification.fix_loop?.judge?.path).toBe('verification.fix_loop.judge');
    expect(verification.fix_loop?.steps[0]?.tasks[0]?.path).toBe('verification.fix_loop.main.repair');
    const spec = chain.nodes[0]!;
    expect(spec.kind === 'exec' && spec.steps[0]!.tasks[0]!.path).toBe('spec.main.author');
    const author = spec.kind === 'exec' ? spec.steps[0]!.tasks[0]! : null;
    expect(author?.kind === 'agent' && author.prompt).toMatch(/^Write a specification/);
  });

  it('say which layer set each field (sources)', () => {
    const sources = chainSources(set.chains.default!, set.policy.model)!;
    expect(sources['implementation.main.implement']).toMatchObject({
      id: { value: 'implement', source: 'library:nodes.implementation' },
      profile: { value: 'strong', source: 'library:tasks.implementer' },
      'policy.time_cap_minutes': { value: 120, source: 'library:tasks.implementer' },
      'policy.budget_usd': { value: null, source: 'policy' },
      scope: { value: 'once', source: 'default' },
    });
    expect(sources.implementation).toMatchObject({
      description: { source: 'chain' },
      kind: { value: 'exec', source: 'library:nodes.implementation' },
    });
    expect(sources['verification.fix_loop']).toMatchObject({
      max_attempts: { value: 2, source: 'library:nodes.verification' },
    });
    // A builtin task lists no steering and no agent-only caps.
    expect(sources['verification.tests.verify']!.steering).toBeUndefined();
    expect(sources['verification.tests.verify']!['policy.budget_usd']).toBeUndefined();
  });

  it('layer caps and loop limits', () => {
    const c = set.chains['merge-request']!;
    const { scopes, problems } = capScopes({ id: c.id, checked: c.checked, tree: c.tree }, set.policy.model);
    expect(problems).toEqual([]);
    const wait = scopes.find((s) => s.path === 'external_approval.main.await')!;
    expect(wait.caps.total_time_cap_minutes).toMatchObject({
      value: 10080,
      source: 'library:tasks.await_external_approval',
      maximum: null,
    });
    expect(loopLimits(c.checked!, 'verification', set.policy.model)).toMatchObject({
      attempts: { value: 2, source: 'loop' },
      wall_clock_s: { value: 3600, source: 'default' },
    });
  });
});
