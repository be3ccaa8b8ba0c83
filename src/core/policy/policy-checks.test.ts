import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../contract/problems.js';
import { validateConfigSet, type ConfigTexts } from '../config/validate-set.js';
import { durationMinutes } from './gate-timeout.js';

const LIBRARY = `
tasks:
  run_tests:
    kind: subprocess
    run: npm test
`;
const HARNESSES = `
harnesses:
  claude:
    provider: claude
  codex:
    provider: codex
`;

const set = (chain: string, more: Partial<ConfigTexts> = {}) =>
  validateConfigSet({ library: LIBRARY, chains: { c: chain }, harnesses: HARNESSES, ...more });
const problems = (chain: string, more: Partial<ConfigTexts> = {}) =>
  set(chain, more).problems.map(formatProblem);
const warnings = (chain: string, more: Partial<ConfigTexts> = {}) =>
  set(chain, more).warnings.map(formatProblem);

describe('sandbox is set once', () => {
  const node = (nodePolicy: string, stepPolicy: string) => `
nodes:
  - id: build
    kind: exec
${nodePolicy}
    steps:
      - id: test
${stepPolicy}
        tasks:
          - id: run
            extends: run_tests
`;
  const sb = (indent: string, image: string) =>
    `${indent}policy:\n${indent}  sandbox:\n${indent}    image: ${image}\n${indent}    unrestricted_network: true`;

  it('refuses a narrower scope that changes it, naming the scope that set it first', () => {
    expect(problems(node(sb('    ', 'a:1'), sb('        ', 'b:1')))).toEqual([
      'chains/c.yaml:12:11: build.test.policy.sandbox: chain `c`: sandbox is set once, by `build`; a narrower layer cannot change it',
    ]);
  });
  it('accepts the same sandbox written again (key order does not matter)', () => {
    const same = `        policy:\n          sandbox:\n            unrestricted_network: true\n            image: a:1`;
    expect(problems(node(sb('    ', 'a:1'), same))).toEqual([]);
  });
  it('accepts a sandbox set first below the chain', () => {
    expect(problems(node('', sb('        ', 'b:1')))).toEqual([]);
  });
});

describe('gate timeout against total_time_cap_minutes', () => {
  const chain = (policy: string, timeout: string) => `
${policy}
nodes:
  - id: build
    kind: exec
    tasks:
      - id: run
        extends: run_tests
  - id: approve
    kind: gate
    timeout: ${timeout}
`;
  it('is a problem past the chain cap, naming both numbers', () => {
    expect(problems(chain('policy:\n  total_time_cap_minutes: 90', '2h'))).toEqual([
      "chains/c.yaml:12:14: approve.timeout: chain `c`: gate timeout `2h` (120 minutes) exceeds total_time_cap_minutes 90 of the chain's policy; the cap stops the item before the timeout fires",
    ]);
    expect(problems(chain('policy:\n  total_time_cap_minutes: 90', '90m'))).toEqual([]);
  });
  it('is a problem past maxima.work_item', () => {
    const policy = 'maxima:\n  work_item:\n    total_time_cap_minutes: 600\n';
    expect(problems(chain('', '7d'), { policy })).toEqual([
      'chains/c.yaml:11:14: approve.timeout: chain `c`: gate timeout `7d` (10080 minutes) exceeds total_time_cap_minutes 600 of policy.yaml maxima.work_item; the cap stops the item before the timeout fires',
    ]);
  });
  it('is only a warning past defaults.work_item, which an item may raise', () => {
    const policy = 'defaults:\n  work_item:\n    total_time_cap_minutes: 60\n';
    expect(problems(chain('', '2h'), { policy })).toEqual([]);
    expect(warnings(chain('', '2h'), { policy })).toEqual([
      'chains/c.yaml:11:14: approve.timeout: chain `c`: gate timeout `2h` (120 minutes) exceeds total_time_cap_minutes 60 of policy.yaml defaults.work_item; unless an item raises that default (within maxima), the cap stops the item before the timeout fires',
    ]);
  });
  it('reads durations in minutes', () => {
    expect([
      durationMinutes('30s'),
      durationMinutes('5m'),
      durationMinutes('2h'),
      durationMinutes('1d'),
    ]).toEqual([0.5, 5, 120, 1440]);
    expect(durationMinutes('5w')).toBeNull();
  });
});

describe('escalation_harness', () => {
  const chain = (where: string) => `
${where}
nodes:
  - id: build
    kind: exec
    policy:
      escalation_harness: cladue
    tasks:
      - id: run
        extends: run_tests
`;
  it('names a harness in harnesses.yaml or `item`', () => {
    expect(problems(chain('policy:\n  escalation_harness: item'))).toEqual([
      'chains/c.yaml:8:27: build.policy.escalation_harness: escalation_harness `cladue` is not a harness in harnesses.yaml (or `item`); did you mean `claude`?',
    ]);
  });
  it('is checked in a repo policy too', () => {
    const repos =
      'repos:\n  - path: /srv/a\n    setup_command: ""\n    policy:\n      escalation_harness: gemini\n';
    expect(
      set('nodes:\n  - id: b\n    tasks:\n      - id: r\n        extends: run_tests\n', {
        repos,
      }).problems.map(formatProblem),
    ).toEqual([
      'repos.yaml:5:27: repos.0.policy.escalation_harness: repo `/srv/a`: escalation_harness `gemini` is not a harness in harnesses.yaml (or `item`)',
    ]);
  });
});

describe('repo policy against policy.yaml maxima', () => {
  const chain = 'nodes:\n  - id: b\n    tasks:\n      - id: r\n        extends: run_tests\n';
  const policy = `
maxima:
  max_attempts: 3
  work_item:
    time_cap_minutes: 120
  tasks:
    time_cap_minutes: 30
`;
  it('refuses a cap past maxima.work_item and loop limits past their maxima', () => {
    const repos = `repos:
  - path: /srv/a
    setup_command: ""
    policy:
      time_cap_minutes: 200
      max_attempts: 5
`;
    expect(set(chain, { policy, repos }).problems.map(formatProblem)).toEqual([
      "repos.yaml:5:25: repos.0.policy.time_cap_minutes: repo `/srv/a`: policy.time_cap_minutes 200 relaxes policy.yaml maxima.work_item.time_cap_minutes 120; a repo's policy may only tighten",
      "repos.yaml:6:21: repos.0.policy.max_attempts: repo `/srv/a`: policy.max_attempts 5 relaxes policy.yaml maxima.max_attempts 3; a repo's policy may only tighten",
    ]);
  });
  it('accepts a work-item cap above a narrower level’s maximum (levels nest)', () => {
    const repos =
      'repos:\n  - path: /srv/a\n    setup_command: ""\n    policy:\n      time_cap_minutes: 100\n';
    expect(set(chain, { policy, repos }).problems).toEqual([]);
  });
});
