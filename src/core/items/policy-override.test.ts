import { describe, expect, it } from 'vitest';
import { overrideAt, policyOverrideProblem } from './policy-override.js';

describe('policy_override', () => {
  it('accepts numbers per component path', () => {
    expect(
      policyOverrideProblem({
        verification: { max_attempts: 5, timeout_minutes: 90 },
        'build.main.x': { budget_usd: 1.5 },
      }),
    ).toBeNull();
    expect(overrideAt({ verification: { max_attempts: 5 } }, 'verification')).toEqual({ max_attempts: 5 });
    expect(overrideAt({}, 'verification')).toEqual({});
    expect(overrideAt(null, 'verification')).toEqual({});
    // The flat spelling `PATH.FIELD`.
    expect(policyOverrideProblem({ 'implementation.time_cap_minutes': 30 })).toBeNull();
    expect(overrideAt({ 'implementation.time_cap_minutes': 30 }, 'implementation')).toEqual({
      time_cap_minutes: 30,
    });
    expect(policyOverrideProblem({ 'implementation.max_attempts': 0 })).toEqual({
      field: 'policy_override.implementation.max_attempts',
      message: 'must be a positive integer',
    });
  });

  it.each([
    [[], 'policy_override', 'is not an object of component paths'],
    [{ 'Bad Path': {} }, 'policy_override.Bad Path', 'is not a component path (e.g. verification.review)'],
    [{ verification: 3 }, 'policy_override.verification', 'is not an object'],
    [
      { verification: { attempts: 3 } },
      'policy_override.verification.attempts',
      'is not one of max_attempts, timeout_minutes, time_cap_minutes, total_time_cap_minutes, token_budget, budget_usd',
    ],
    [
      { verification: { max_attempts: 1.5 } },
      'policy_override.verification.max_attempts',
      'must be a positive integer',
    ],
    [
      { verification: { budget_usd: 0 } },
      'policy_override.verification.budget_usd',
      'must be a positive number',
    ],
    [
      { verification: { budget_usd: '2' } },
      'policy_override.verification.budget_usd',
      'must be a positive number',
    ],
  ])('refuses %j', (value, field, message) => {
    expect(policyOverrideProblem(value)).toEqual({ field, message });
  });
});
