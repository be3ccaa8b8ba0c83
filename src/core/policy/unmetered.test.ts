import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../contract/problems.js';
import { validateConfigSet } from '../config/validate-set.js';

const HARNESSES = (launchUsd = '') => `
harnesses:
  claude:
    provider: claude
  copilot:
    provider: copilot
${launchUsd}
profiles:
  fast:
    providers:
      claude: { model: claude-haiku-4-5 }
      copilot: { model: gpt-5-mini }
    fallback:
      - harness: copilot
`;

const chain = (chainPolicy: string, task: string) => `
${chainPolicy}
nodes:
  - id: build
    kind: exec
    steps:
      - id: write
        tasks:
          - id: code
            kind: agent
            prompt: change it
${task}
`;

const problems = (text: string, opts: { policy?: string; harnesses?: string; unmetered?: string[] } = {}) =>
  validateConfigSet({
    library: null,
    chains: { c: text },
    harnesses: opts.harnesses ?? HARNESSES(),
    policy: opts.policy ?? null,
    unmetered: opts.unmetered ?? ['copilot'],
  }).problems.map(formatProblem);

const REFUSED = (where: string, field: string, cap: string) =>
  `chains/c.yaml:${where}: build.write.code.${field}: chain \`c\`: task \`build.write.code\` can run on harness \`copilot\`, whose CLI reports no usage (provider \`copilot\`: usage_reported none), under ${cap} with no time cap, so the cap could not stop it: set a time_cap_minutes, or the harness's launch_usd in harnesses.yaml`;

describe('a dollar cap over a CLI that tells no usage', () => {
  it("refuses the task's own harness under the chain's budget_usd", () => {
    const text = chain('policy:\n  budget_usd: 5', '            harness: copilot');
    expect(problems(text)).toEqual([REFUSED('13:22', 'harness', 'budget_usd 5 at `the chain`')]);
  });

  it("refuses a fallback, and names policy.yaml's per-item budget", () => {
    const text = chain('', '            fallback:\n              - harness: copilot');
    expect(problems(text, { policy: 'budget:\n  work_item_usd: 3\n' })).toEqual([
      REFUSED('13:17', 'fallback.0', 'policy.yaml budget.work_item_usd 3'),
    ]);
  });

  it("refuses a profile's fallback at the task, and reads policy.yaml's defaults for the level", () => {
    const text = chain('', '            profile: fast');
    const policy = 'defaults:\n  tasks:\n    budget_usd: 1\n';
    expect(problems(text, { policy })).toEqual([
      REFUSED('9:13', 'harness', 'budget_usd 1 at `build.write.code`'),
    ]);
  });

  it('accepts it under a time cap of the task or of a scope around it', () => {
    const own = chain(
      'policy:\n  budget_usd: 5',
      '            harness: copilot\n            policy: { time_cap_minutes: 20 }',
    );
    expect(problems(own)).toEqual([]);
    const around = chain(
      'policy:\n  budget_usd: 5\n  total_time_cap_minutes: 60',
      '            harness: copilot',
    );
    expect(problems(around)).toEqual([]);
  });

  it('accepts it when the harness counts a launch_usd, or with no dollar cap at all', () => {
    const text = chain('policy:\n  budget_usd: 5', '            harness: copilot');
    expect(problems(text, { harnesses: HARNESSES('    launch_usd: 0.4') })).toEqual([]);
    expect(problems(chain('', '            harness: copilot'))).toEqual([]);
  });

  it('accepts any harness when no provider is known to tell no usage', () => {
    const text = chain('policy:\n  budget_usd: 5', '            harness: copilot');
    expect(problems(text, { unmetered: [] })).toEqual([]);
  });
});
