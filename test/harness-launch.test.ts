import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessesFile } from '../src/contract/config/harnesses.js';
import { sessionCost } from '../src/core/harness/prices.js';
import { buildAgentLaunch } from '../src/runtime/harness/agent-launch.js';
import { HarnessCatalog } from '../src/runtime/harness/catalog.js';
import { LiveUsage } from '../src/runtime/workers/live-usage.js';
import { launchHere } from '../src/runtime/workers/supervisor.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { cleanupAll, repoRoot } from './helpers/server.js';

afterAll(cleanupAll);

const fakes = join(repoRoot, 'test', 'fixtures', 'fake-agents');
const harnesses = HarnessesFile.parse({
  harnesses: {
    claude: { provider: 'claude', executable: join(fakes, 'claude'), defaults: { model: 'sonnet' } },
    codex: { provider: 'codex', executable: join(fakes, 'codex') },
  },
  profiles: {
    strong: {
      providers: {
        claude: { model: 'opus', effort: 'high' },
        codex: { model: 'gpt-5-codex', effort: 'high' },
      },
    },
  },
});
const steering = (name: string) =>
  name === 'house-style' ? { instructions: 'Write short sentences.' } : undefined;

async function run(harness: string) {
  const repo = makeRepo();
  const results = mkdtempSync(join(tmpdir(), 'jig-launch-'));
  const promptLog = join(results, 'prompts.jsonl');
  const built = buildAgentLaunch({
    task: {
      id: 'author',
      kind: 'agent',
      path: 'spec.main.author',
      harness,
      profile: 'strong',
      prompt: 'Write the spec.',
      steering: ['house-style'],
    },
    node: 'spec',
    harnesses,
    providers: new HarnessCatalog(join(results, 'config')).providers().providers,
    repo: { path: repo, steering: [] },
    steering,
    steer: 'Keep it to one page.',
  });
  if (!built.ok) throw new Error(built.reason);
  const logPath = join(results, 'session.log');
  const exitPath = join(results, 'session.exit');
  const resultPath = join(results, 'result.json');
  const child = launchHere({
    argv: built.argv,
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...gitEnv,
      ...built.env,
      JIG_RESULT_PATH: resultPath,
      FAKE_AGENT_MODE: 'fix',
      FAKE_AGENT_TOKENS: '1200,300,50,10',
      FAKE_AGENT_PROMPT_LOG: promptLog,
    },
    logPath,
    exitPath,
  });
  const live = new LiveUsage(logPath, built.provider, { now: Date.now });
  await child.exited;
  const readout = live.finish();
  return { built, readout, repo, resultPath, promptLog, exit: readFileSync(exitPath, 'utf8') };
}

describe('launching an agent task through its provider definition', () => {
  it('drives the fake Claude Code: system prompt composed, model from the profile, usage and reported cost read', async () => {
    const { built, readout, repo, resultPath, promptLog, exit } = await run('claude');
    expect(built.choice).toMatchObject({
      harness: 'claude',
      provider: 'claude',
      model: 'opus',
      effort: 'high',
    });
    expect(built.argv[0]).toBe(join(fakes, 'claude'));
    expect(built.argv).toContain('--append-system-prompt');
    expect(built.argv).toContain('--output-format');
    expect(built.context.startsWith('You are running as one task of a Jig work item')).toBe(true);
    expect(built.context).toContain('Write short sentences.');
    expect(exit).toBe('0');
    const seen = JSON.parse(readFileSync(promptLog, 'utf8').trim().split('\n')[0]!);
    expect(seen.prompt).toBe(
      'Write the spec.\n\nA note from the person running this work item:\nKeep it to one page.',
    );
    expect(seen.system_prompt).toBe(built.context);
    expect(seen.model).toBe('opus');
    expect(readout).toMatchObject({
      done: true,
      is_error: false,
      tokens: { input: 1200, output: 300, cache_read: 50, cache_write: 10 },
    });
    expect(readout.session_id).toEqual(expect.any(String));
    expect(sessionCost(new HarnessCatalog('/nonexistent').prices(), 'claude', readout, 'opus').source).toBe(
      'reported',
    );
    expect(JSON.parse(readFileSync(resultPath, 'utf8')).status).toBe('done');
    expect(git(repo, 'log', '--format=%s').split('\n').length).toBe(2);
  });

  it('drives the fake Codex: no reported cost, so dollars are estimated from the price table', async () => {
    const { built, readout } = await run('codex');
    expect(built.choice).toMatchObject({ provider: 'codex', model: 'gpt-5-codex' });
    expect(readout.done).toBe(true);
    expect(readout.cost_usd_reported).toBe(null);
    const cost = sessionCost(new HarnessCatalog('/nonexistent').prices(), 'codex', readout, 'gpt-5-codex');
    expect(cost.source).toBe('estimated');
    expect(cost.usd).toBeGreaterThan(0);
  });
});
