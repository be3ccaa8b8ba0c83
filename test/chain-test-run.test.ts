import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ChainTestScript } from '../src/contract/chain-test.js';
import { RepoEntry } from '../src/contract/config/repos.js';
import { runChainTest } from '../src/runtime/chain-test/run-chain-test.js';
import { buildChain } from './helpers/chain-tests.js';
import { makeRepo } from './helpers/git.js';
import { repoRoot } from './helpers/server.js';

/*
 * Issue 51: a chain test runs the real engine in a server and a home of its own, agents answered
 * by the script, gates decided by it, and reports the path; the real repository keeps its branches.
 */

const chain = buildChain(true);

function configWith(chains: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'jig-chain-test-config-')), 'config');
  cpSync(join(repoRoot, 'defaults', 'config'), dir, { recursive: true });
  for (const [id, text] of Object.entries(chains)) writeFileSync(join(dir, 'chains', `${id}.yaml`), text);
  return dir;
}

const branches = (repo: string): string[] =>
  execFileSync('git', ['branch', '--format=%(refname:short)'], { cwd: repo, encoding: 'utf8' })
    .trim()
    .split('\n');

describe('a chain test run', () => {
  it('walks the chain through a fix loop and a rejected gate, reports the path and spend, and leaves the repository alone', async () => {
    const configDir = configWith({ shipping: chain });
    const repo = makeRepo();
    const before = branches(repo);
    const tmp = mkdtempSync(join(tmpdir(), 'jig-chain-test-tmp-'));
    const report = await runChainTest({
      chain: 'shipping',
      configDir,
      addonsDir: join(configDir, '..', 'addons'),
      repo: RepoEntry.parse({ path: repo, test_command: '', setup_command: '' }),
      tmp,
      script: ChainTestScript.parse({
        tasks: {
          'build.main.code': [{ files: { 'feature.txt': 'v1\n' }, cost_usd: 0.25 }, { status: 'done' }],
          'build.main.check': [
            { findings: [{ severity: 'important', message: 'feature.txt says v1' }] },
            { findings: [] },
          ],
          'build.fix_loop.main.repair': { files: { 'feature.txt': 'v2\n' }, cost_usd: 0.1 },
        },
        gates: { ship: [{ reject: 'Say v3.' }, 'approve'] },
        expect: { completes: true, reaches: ['build', 'ship'], spent_below: 1 },
      }),
    });
    expect({ ok: report.ok, status: report.status, ended: report.ended, stop: report.stop }).toEqual({
      ok: true,
      status: 'completed',
      ended: 'completed',
      stop: null,
    });
    expect(report.path.map((s) => `${s.node ?? '-'} ${s.detail}`)).toEqual([
      'build started',
      'build round 1: 1 finding(s), the fix loop opens',
      'build fix cycle 1 of 3',
      'build round 2: 0 finding(s)',
      'build completed',
      'ship gate waits',
      'ship gate rejected: Say v3.',
      'build started',
      'build round 1: 0 finding(s)',
      'build completed',
      'ship gate waits',
      'ship gate approved',
      '- item completed',
    ]);
    // Tasks of a step run at once: their order among themselves is theirs.
    expect(report.sessions.map((s) => `${s.task}#${s.attempt} ${s.status} ${s.cost_usd}`).sort()).toEqual([
      'build.fix_loop.main.repair#1 done 0.1',
      'build.main.check#1 done 0',
      'build.main.check#2 done 0',
      'build.main.check#3 done 0',
      'build.main.code#1 done 0.25',
      'build.main.code#2 done 0',
      'build.main.code#3 done 0',
    ]);
    expect(report.spent_usd).toBeCloseTo(0.35, 10);
    expect(report.expectations).toEqual([
      { expect: 'completes: true', ok: true, actual: 'completed' },
      { expect: 'reaches: build', ok: true, actual: 'started' },
      { expect: 'reaches: ship', ok: true, actual: 'started' },
      { expect: 'spent_below: 1', ok: true, actual: '$0.35' },
    ]);
    expect(branches(repo)).toEqual(before);
    // The test home is gone.
    expect(readdirSync(tmp)).toEqual([]);
  });
});
