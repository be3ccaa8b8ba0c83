import { describe, expect, it } from 'vitest';
import { policyDocs, policyRefusal, runPolicyOps } from '../../../../test/helpers/policy-settings.js';
import { OpRefused } from '../ops/context.js';
import { POLICY_OPS } from './policy-ops.js';

const set = (scope: string, key: string, value?: unknown) =>
  value === undefined ? { op: 'set_value', scope, key } : { op: 'set_value', scope, key, value };

const SMALL = `max_concurrent: 2
budget:
  work_item_usd: 10
`;

describe('set_value', () => {
  const cases: [scope: string, good: string, value: unknown, after: unknown, refused: string][] = [
    [
      'limits',
      'maxima.tasks.budget_usd',
      4,
      { max_concurrent: 2, budget: { work_item_usd: 10 }, maxima: { tasks: { budget_usd: 4 } } },
      'defaults.allowed_harnesses',
    ],
    [
      'escalation',
      'auto_escalate_delay_s',
      30,
      { ...parseSmall(), auto_escalate_delay_s: 30 },
      'max_concurrent',
    ],
    [
      'retries',
      'forge_cli_timeout_s',
      60,
      { ...parseSmall(), forge_cli_timeout_s: 60 },
      'auto_review_attempts',
    ],
    [
      'loops',
      'default.attempts',
      4,
      { ...parseSmall(), default: { attempts: 4 } },
      'loops.verification.fix_loop',
    ],
    ['housekeeping', 'archive.after_days', 7, { ...parseSmall(), archive: { after_days: 7 } }, 'archive'],
    [
      'findings',
      'findings.loop_severities',
      ['critical'],
      { ...parseSmall(), findings: { loop_severities: ['critical'] } },
      'loop_severities',
    ],
    [
      'sandbox',
      'sandbox',
      { kind: 'bubblewrap', network: { allow: ['api.test'] } },
      { ...parseSmall(), sandbox: { kind: 'bubblewrap', network: { allow: ['api.test'] } } },
      'sandbox.kind',
    ],
  ];
  for (const [scope, good, value, after, refused] of cases) {
    it(`${scope}: sets \`${good}\` and refuses \`${refused}\``, () => {
      expect(runPolicyOps(SMALL, set(scope, good, value))).toEqual(after);
      expect(policyRefusal(SMALL, set(scope, refused, 1))).toBe(
        `key \`${refused}\` is not a key of scope \`${scope}\``,
      );
    });
  }

  it('limits: takes every cap of every level in defaults and maxima, and the budgets and loop bounds', () => {
    const doc = runPolicyOps(
      '',
      set('limits', 'defaults.work_item.total_time_cap_minutes', 600),
      set('limits', 'maxima.nodes.token_budget', 1000),
      set('limits', 'defaults.steps.time_cap_minutes', 30),
      set('limits', 'budget.daily_usd', 50),
      set('limits', 'maxima.max_attempts', 5),
      set('limits', 'defaults.timeout_minutes', 60),
    );
    expect(doc).toEqual({
      defaults: {
        work_item: { total_time_cap_minutes: 600 },
        steps: { time_cap_minutes: 30 },
        timeout_minutes: 60,
      },
      maxima: { nodes: { token_budget: 1000 }, max_attempts: 5 },
      budget: { daily_usd: 50 },
    });
    expect(policyRefusal('', set('limits', 'maxima.items.budget_usd', 1))).toBe(
      'key `maxima.items.budget_usd` is not a key of scope `limits`',
    );
    expect(policyRefusal('', set('limits', 'defaults.budget_usd', 1))).toBe(
      'key `defaults.budget_usd` is not a key of scope `limits`',
    );
  });

  it('refuses the harnesses scope and any other scope', () => {
    expect(policyRefusal(SMALL, set('harnesses', 'defaults.allowed_harnesses', ['claude']))).toBe(
      'scope `harnesses` is not a policy scope (harness fields are set on the harnesses draft): limits, escalation, retries, loops, housekeeping, findings, sandbox',
    );
    expect(policyRefusal(SMALL, set('budget', 'work_item_usd', 3))).toBe(
      'scope `budget` is not a policy scope: limits, escalation, retries, loops, housekeeping, findings, sandbox',
    );
  });

  it('refuses a value under a parent key that is not a mapping', () => {
    expect(policyRefusal('budget: 5\n', set('limits', 'budget.daily_usd', 20))).toBe(
      '`budget` in policy.yaml is not a mapping, so `budget.daily_usd` cannot be set under it',
    );
    expect(policyRefusal('maxima:\n  tasks: [1]\n', set('limits', 'maxima.tasks.budget_usd', 2))).toBe(
      '`maxima.tasks` in policy.yaml is not a mapping, so `maxima.tasks.budget_usd` cannot be set under it',
    );
    expect(policyRefusal('- 1\n', set('retries', 'rate_limit_retries', 2))).toBe(
      'policy.yaml is not a mapping',
    );
  });

  it('fills a section written empty, and creates the file when there is none', () => {
    expect(runPolicyOps('budget:\n', set('limits', 'budget.daily_usd', 20))).toEqual({
      budget: { daily_usd: 20 },
    });
    expect(runPolicyOps(null, set('housekeeping', 'max_concurrent', 4))).toEqual({ max_concurrent: 4 });
  });

  it('removes the key on null or no value, and each section the removal leaves empty', () => {
    const text = `budget:
  work_item_usd: 10
  daily_usd: 50
maxima:
  tasks:
    budget_usd: 4
  max_attempts: 5
`;
    expect(
      runPolicyOps(
        text,
        set('limits', 'budget.work_item_usd', null),
        set('limits', 'budget.daily_usd'),
        set('limits', 'maxima.tasks.budget_usd', null),
      ),
    ).toEqual({ maxima: { max_attempts: 5 } });
    expect(
      runPolicyOps(text, set('limits', 'maxima.max_attempts'), set('limits', 'maxima.tasks.budget_usd')),
    ).toEqual({ budget: { work_item_usd: 10, daily_usd: 50 } });
    // Nothing to remove: no change, and no file made.
    expect(runPolicyOps(null, set('limits', 'budget.daily_usd', null))).toBeNull();
    expect(runPolicyOps('budget: 5\n', set('limits', 'budget.daily_usd'))).toEqual({ budget: 5 });
  });
});

describe('set_loop', () => {
  it("starts from the entry's own values", () => {
    const text = `default:
  attempts: 4
  wall_clock_s: 1800
loops:
  verification.fix_loop:
    attempts: 2
    wall_clock_s: 900
`;
    expect(runPolicyOps(text, { op: 'set_loop', key: 'verification.fix_loop', max_attempts: 5 })).toEqual({
      default: { attempts: 4, wall_clock_s: 1800 },
      loops: { 'verification.fix_loop': { attempts: 5, wall_clock_s: 900 } },
    });
  });

  it('starts a new entry from the `default:` block, else from the built-in defaults', () => {
    const text = `default:
  attempts: 4
  wall_clock_s: 1800
loops: {}
`;
    expect(runPolicyOps(text, { op: 'set_loop', key: 'review.fix_loop', wall_clock_s: 60 })).toEqual({
      default: { attempts: 4, wall_clock_s: 1800 },
      loops: { 'review.fix_loop': { attempts: 4, wall_clock_s: 60 } },
    });
    expect(runPolicyOps('max_concurrent: 2\n', { op: 'set_loop', key: 'review.fix_loop' })).toEqual({
      max_concurrent: 2,
      loops: { 'review.fix_loop': { attempts: 3, wall_clock_s: 3600 } },
    });
  });

  it('keeps a key naming no loop (the result shows it as a problem)', () => {
    expect(runPolicyOps('loops: {}\n', { op: 'set_loop', key: 'nowhere.fix_loop', max_attempts: 1 })).toEqual(
      {
        loops: { 'nowhere.fix_loop': { attempts: 1, wall_clock_s: 3600 } },
      },
    );
  });

  it('is refused when `loops` is not a mapping', () => {
    expect(policyRefusal('loops: [1]\n', { op: 'set_loop', key: 'review.fix_loop' })).toBe(
      '`loops` in policy.yaml is not a mapping',
    );
  });
});

describe('remove_loop', () => {
  it('removes the entry and keeps `loops:`', () => {
    const text = 'loops:\n  review.fix_loop:\n    attempts: 2\n';
    expect(runPolicyOps(text, { op: 'remove_loop', key: 'review.fix_loop' })).toEqual({ loops: {} });
  });

  it('is refused when the key is not in `loops`', () => {
    const refused = '`verification.fix_loop` is not in `loops` of policy.yaml';
    expect(policyRefusal('loops: {}\n', { op: 'remove_loop', key: 'verification.fix_loop' })).toBe(refused);
    expect(policyRefusal(null, { op: 'remove_loop', key: 'verification.fix_loop' })).toBe(refused);
  });
});

describe('parse', () => {
  const refusal = (raw: { op: string; [k: string]: unknown }): string => {
    try {
      POLICY_OPS.parse(raw);
    } catch (e) {
      if (e instanceof OpRefused) return e.detail;
      throw e;
    }
    throw new Error('not refused');
  };

  it('takes each op with its fields', () => {
    const setValue = { op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: null };
    const removeLoop = { op: 'remove_loop', key: 'a.fix_loop' };
    expect(POLICY_OPS.parse(setValue)).toEqual({
      op: 'set_value',
      scope: 'limits',
      key: 'budget.daily_usd',
      value: null,
    });
    expect(POLICY_OPS.parse(removeLoop)).toEqual({
      op: 'remove_loop',
      key: 'a.fix_loop',
    });
  });

  it('refuses an unknown op, an unknown field and a mistyped or missing one', () => {
    expect(refusal({ op: 'set_limit' })).toBe(
      'op: unknown op `set_limit` on the policy draft (set_value, set_loop, remove_loop)',
    );
    expect(refusal({ op: 'set_loop', key: 'a.fix_loop', attempts: 2 })).toMatch(/^op: .*\(attempts\)$/);
    expect(refusal({ op: 'set_loop', key: 'a.fix_loop', max_attempts: 1.5 })).toMatch(/^max_attempts: /);
    expect(refusal({ op: 'set_value', key: 'max_concurrent', value: 2 })).toMatch(/^scope: /);
  });
});

it('works on the working copy it is given (no other file)', () => {
  const docs = policyDocs(SMALL);
  POLICY_OPS.run(docs, POLICY_OPS.parse(set('housekeeping', 'max_concurrent', 5)));
  expect(docs.files).toEqual({ 'policy.yaml': { max_concurrent: 5, budget: { work_item_usd: 10 } } });
});

function parseSmall(): Record<string, unknown> {
  return { max_concurrent: 2, budget: { work_item_usd: 10 } };
}
