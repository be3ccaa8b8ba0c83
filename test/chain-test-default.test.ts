import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ChainTestScript } from '../src/contract/chain-test.js';
import { RepoEntry } from '../src/contract/config/repos.js';
import { runChainTest } from '../src/runtime/chain-test/run-chain-test.js';
import { makeRepo } from './helpers/git.js';
import { repoRoot } from './helpers/server.js';

/*
 * Issue 51, done when: a script drives the seeded `default` chain through a fix loop (two failing
 * reviews, then a pass), a gate rejection and a budget stop, and the report says so; command tasks
 * the script stubs answer from it, the rest run for real.
 */

function seededConfig(extra: Record<string, string> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'jig-chain-test-config-')), 'config');
  cpSync(join(repoRoot, 'defaults', 'config'), dir, { recursive: true });
  for (const [id, text] of Object.entries(extra)) writeFileSync(join(dir, 'chains', `${id}.yaml`), text);
  return dir;
}

const branches = (repo: string): string[] =>
  execFileSync('git', ['branch', '--format=%(refname:short)'], { cwd: repo, encoding: 'utf8' })
    .trim()
    .split('\n');

const important = (message: string): { severity: 'important'; message: string } => ({
  severity: 'important',
  message,
});

describe('a chain test of the seeded default chain', () => {
  it('goes through a rejected spec, a fix loop of two failing reviews, and stops on the item budget', async () => {
    const configDir = seededConfig();
    const repo = makeRepo();
    const before = branches(repo);
    const tmp = mkdtempSync(join(tmpdir(), 'jig-chain-test-tmp-'));
    const report = await runChainTest({
      chain: 'default',
      configDir,
      addonsDir: join(configDir, '..', 'addons'),
      repo: RepoEntry.parse({ path: repo, test_command: 'exit 1', setup_command: '' }),
      tmp,
      script: ChainTestScript.parse({
        tasks: {
          'spec.main.author': [
            { document: '# Spec\n\nAdd a greeting.\n', cost_usd: 0.5 },
            { document: '# Spec\n\nAdd greeting.txt.\n', cost_usd: 0.5 },
          ],
          'plan.main.author': { document: '# Plan\n\nWrite greeting.txt.\n', cost_usd: 0.5 },
          'implementation.main.implement': { files: { 'greeting.txt': 'helo\n' }, cost_usd: 1 },
          'verification.review.code_review': [
            { findings: [important('greeting.txt: "helo" is misspelt')] },
            { findings: [important('greeting.txt: no final punctuation')] },
            { findings: [] },
          ],
          'verification.fix_loop.main.repair': [
            { files: { 'greeting.txt': 'hello\n' }, cost_usd: 0.25 },
            { files: { 'greeting.txt': 'hello.\n' }, cost_usd: 0.25 },
          ],
          'verification.fix_loop.judge': { verdict: 'continue' },
          // This session takes the item past its $10 cap.
          'work_brief.main.author': { document: '# Brief\n', cost_usd: 8 },
        },
        // The repository's test command fails; the script's stub stands in for it.
        commands: { 'verification.tests.verify': { exit_code: 0, output: '3 passed\n' } },
        gates: { spec_approval: [{ reject: 'Name the file.' }, 'approve'], plan_approval: 'approve' },
        expect: {
          stops: 'budget',
          reaches: [
            'spec',
            'spec_approval',
            'plan',
            'plan_approval',
            'implementation',
            'verification',
            'work_brief',
          ],
          spent_below: 12,
        },
        timeout_s: 300,
      }),
    });
    expect({ ok: report.ok, status: report.status, ended: report.ended, stop: report.stop?.kind }).toEqual({
      ok: true,
      status: 'stopped',
      ended: 'stopped (budget)',
      stop: 'budget',
    });
    const path = report.path.map((s) => `${s.node ?? '-'} ${s.detail}`);
    expect(path.slice(0, -1)).toEqual([
      'spec started',
      'spec completed',
      'spec_approval gate waits',
      'spec_approval gate rejected: Name the file.',
      'spec started',
      'spec completed',
      'spec_approval gate waits',
      'spec_approval gate approved',
      'plan started',
      'plan completed',
      'plan_approval gate waits',
      'plan_approval gate approved',
      'implementation started',
      'implementation completed',
      'verification started',
      'verification round 1: 1 finding(s), the fix loop opens',
      'verification fix cycle 1 of 2',
      'verification round 2: 1 finding(s), the fix loop opens',
      'verification judge: continue',
      'verification fix cycle 2 of 2',
      'verification round 3: 0 finding(s)',
      'verification completed',
      'work_brief started',
    ]);
    expect(path.at(-1)).toMatch(
      /^work_brief stopped \(budget\): work_brief\.main\.author: the item's dollar budget .*: 11\.00 USD used of 10\.00 USD/,
    );
    expect(report.sessions.map((s) => `${s.task}#${s.attempt} ${s.status} ${s.cost_usd ?? '-'}`)).toEqual([
      'spec.main.author#1 done 0.5',
      'spec.main.author#2 done 0.5',
      'plan.main.author#1 done 0.5',
      'implementation.main.implement#1 done 1',
      // The stub ran: the repository's own `exit 1` would have failed every round.
      'verification.tests.verify#1 done -',
      'verification.review.code_review#1 done 0',
      'verification.fix_loop.main.repair#1 done 0.25',
      'verification.tests.verify#2 done -',
      'verification.review.code_review#2 done 0',
      'verification.fix_loop.judge#1 done 0',
      'verification.fix_loop.main.repair#2 done 0.25',
      'verification.tests.verify#3 done -',
      'verification.review.code_review#3 done 0',
      'work_brief.main.author#1 budget_exceeded 8',
    ]);
    expect(report.spent_usd).toBeCloseTo(11, 10);
    expect(report.expectations.map((e) => `${e.ok ? 'ok' : 'FAILED'} ${e.expect}`)).toEqual([
      'ok stops: budget',
      ...[
        'spec',
        'spec_approval',
        'plan',
        'plan_approval',
        'implementation',
        'verification',
        'work_brief',
      ].map((n) => `ok reaches: ${n}`),
      'ok spent_below: 12',
    ]);
    expect(branches(repo)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('answers a stubbed command from the script and runs the others for real', async () => {
    const chain = `
nodes:
  - id: build
    kind: exec
    steps:
      - id: tests
        tasks:
          - id: unit
            kind: subprocess
            run: exit 3
    fix_loop:
      tasks:
        - id: repair
          kind: agent
          harness: claude
          prompt: Fix the tests.
  - id: check
    kind: exec
    tasks:
      - id: lint
        kind: subprocess
        run: echo "real lint ran" >&2; exit 4
`;
    const configDir = seededConfig({ stubbed: chain });
    const repo = makeRepo();
    const report = await runChainTest({
      chain: 'stubbed',
      configDir,
      addonsDir: join(configDir, '..', 'addons'),
      repo: RepoEntry.parse({ path: repo, test_command: '', setup_command: '' }),
      tmp: mkdtempSync(join(tmpdir(), 'jig-chain-test-tmp-')),
      script: ChainTestScript.parse({
        tasks: { 'build.fix_loop.main.repair': { files: { 'fixed.txt': 'yes\n' } } },
        commands: {
          'build.tests.unit': [
            { exit_code: 1, output: 'FAIL unit: 1 of 3\n' },
            { exit_code: 0, output: 'ok\n' },
          ],
        },
        expect: { completes: true },
        timeout_s: 120,
      }),
    });
    // The lint was not stubbed: its own `exit 4` ran and stopped the item.
    expect({ ok: report.ok, status: report.status, ended: report.ended }).toEqual({
      ok: false,
      status: 'stopped',
      ended: 'stopped (failed)',
    });
    expect(report.sessions.map((s) => `${s.task}#${s.attempt} ${s.status}`)).toEqual([
      'build.tests.unit#1 failed',
      'build.fix_loop.main.repair#1 done',
      'build.tests.unit#2 done',
      'check.main.lint#1 failed',
    ]);
    expect(report.expectations).toEqual([{ expect: 'completes: true', ok: false, actual: 'stopped' }]);
  });
});
