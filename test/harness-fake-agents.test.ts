import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LaunchInputs } from '../src/core/harness/build-argv.js';
import { parsePriceTable, sessionCost } from '../src/core/harness/prices.js';
import { commits, fakes, result, root, run, tempDir } from './helpers/fake-run.js';

/*
 * The fake agent CLIs, spawned for real through the argv builder, their streams read by the
 * provider's reader: what the engine will do with the real CLIs.
 */
const prices = parsePriceTable(readFileSync(join(root, 'defaults/prices.json'), 'utf8'));

const LAUNCH: Record<'claude' | 'codex' | 'gemini', Omit<LaunchInputs, 'executable'>> = {
  claude: {
    prompt: 'Fix the bug',
    context: 'CONTRACT',
    model: 'sonnet',
    permission_mode: 'default',
    allowed_tools: ['Bash(git commit:*)', 'Edit'],
    denied_tools: ['WebFetch'],
  },
  codex: { prompt: 'Fix the bug', context: 'CONTRACT', model: 'gpt-5-codex', effort: 'medium' },
  gemini: { prompt: 'Fix the bug', context: 'CONTRACT', model: 'gemini-2.5-pro' },
};

describe.each(['claude', 'codex', 'gemini'] as const)('fake %s through the argv builder and reader', (id) => {
  it('fix: commits a change, writes {status: done}, and reads as a finished session', async () => {
    const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'fix', FAKE_AGENT_TOKENS: '1000,200,300,0' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(result(r)).toEqual({ status: 'done' });
    expect(commits(r.cwd)).toBe(2);
    expect(r.readout).toMatchObject({
      done: true,
      is_error: false,
      final_text: 'Done.',
      tokens: { input: 1000, output: 200, cache_read: 300, cache_write: 0 },
      rate_limit: { hit: false, resets_at: null },
    });
    expect(r.readout.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const cost = sessionCost(prices, id, r.readout, LAUNCH[id].model ?? null);
    if (id === 'claude') {
      // The fake reports a cost, like Claude Code: it wins.
      expect(cost).toMatchObject({ source: 'reported', usd: 0.00609, model: 'claude-sonnet-4-5' });
    } else {
      expect(cost.source).toBe('estimated');
      expect(cost.usd).toBeGreaterThan(0);
    }
  });

  it('question: needs_context with the question', async () => {
    const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'question', FAKE_AGENT_QUESTION: 'Which API?' });
    expect(r.code).toBe(0);
    expect(result(r)).toEqual({ status: 'needs_context', question: 'Which API?' });
    expect(r.readout.done).toBe(true);
  });

  it('noop: a clean stream, no change, no result file', async () => {
    const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'noop' });
    expect(r.code).toBe(0);
    expect(result(r)).toBeNull();
    expect(commits(r.cwd)).toBe(1);
    expect(r.readout).toMatchObject({ done: true, is_error: false });
  });

  it('fail: an error stream and a non-zero exit', async () => {
    const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'fail' });
    expect(r.code).not.toBe(0);
    expect(r.readout.is_error).toBe(true);
    expect(r.readout.error_message).toMatch(/500/);
    expect(r.readout.rate_limit.hit).toBe(false);
  });

  it('rate_limit: the CLI’s rate-limit shape with its reset, non-zero exit', async () => {
    // 2026-11-22T13:00:00Z: an hour after the reader's clock.
    const r = await run(id, LAUNCH[id], {
      FAKE_AGENT_MODE: 'rate_limit',
      FAKE_AGENT_RESETS_AT: '1795352400',
    });
    expect(r.code).not.toBe(0);
    expect(r.readout.is_error).toBe(true);
    expect(r.readout.rate_limit.hit).toBe(true);
    if (id === 'gemini') {
      // Gemini says "retry in Ns" (relative to when the fake ran), read against the reader's clock.
      expect(r.readout.rate_limit.resets_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    } else {
      expect(r.readout.rate_limit.resets_at).toBe('2026-11-22T13:00:00.000Z');
    }
  });

  it('slow: streams as it goes, and the reader keeps up line by line', async () => {
    const r = await run(id, LAUNCH[id], {
      FAKE_AGENT_MODE: 'slow',
      FAKE_AGENT_STEPS: '3',
      FAKE_AGENT_DELAY_MS: '60',
      FAKE_AGENT_TOKENS: '300,30',
    });
    expect(r.code).toBe(0);
    expect(r.live.length).toBeGreaterThanOrEqual(3);
    expect(r.live[0]!.done).toBe(false);
    expect(r.readout.tokens).toMatchObject({ input: 300, output: 30 });
    if (id === 'claude') {
      // Claude reports usage per message, so live figures grow before the end.
      const inputs = r.live.filter((s) => !s.done).map((s) => s.tokens.input);
      expect(inputs).toContain(100);
      expect(inputs).toContain(200);
    }
  });

  it('sleep: keeps running until stopped', async () => {
    const r = await run(
      id,
      LAUNCH[id],
      { FAKE_AGENT_MODE: 'sleep', FAKE_AGENT_DELAY_MS: '30000' },
      {
        killOn: (s) => s.session_id !== null,
      },
    );
    // Ended by the stop, not by its 30 s sleep: no exit code (a signal) and no final event.
    expect(r.code).toBeNull();
    expect(r.readout.done).toBe(false);
  });
});

describe('what the fakes received', () => {
  it('records argv and prompt; codex resume keeps the thread id', async () => {
    const logs = tempDir('jig-fake-logs-');
    const env = {
      FAKE_AGENT_MODE: 'noop',
      FAKE_AGENT_ARGV_LOG: join(logs, 'argv.jsonl'),
      FAKE_AGENT_PROMPT_LOG: join(logs, 'prompt.jsonl'),
    };
    const first = await run('codex', LAUNCH.codex, env);
    const again = await run(
      'codex',
      { prompt: 'Also the tests', effort: 'low', resume_session_id: first.readout.session_id! },
      env,
    );
    expect(again.code).toBe(0);
    expect(again.readout.session_id).toBe(first.readout.session_id);
    const argv = readFileSync(env.FAKE_AGENT_ARGV_LOG, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(argv[1].slice(0, 2)).toEqual(['exec', 'resume']);
    const prompts = readFileSync(env.FAKE_AGENT_PROMPT_LOG, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(prompts[0]).toMatchObject({
      prompt: 'Fix the bug',
      system_prompt: 'CONTRACT',
      model: 'gpt-5-codex',
    });
    expect(prompts[1]).toMatchObject({
      prompt: 'Also the tests',
      resume: first.readout.session_id,
      effort: 'low',
    });
  });

  it('claude gets the context as its system prompt; gemini inline in the prompt', async () => {
    const logs = tempDir('jig-fake-logs-');
    const env = { FAKE_AGENT_MODE: 'noop', FAKE_AGENT_PROMPT_LOG: join(logs, 'p.jsonl') };
    await run('claude', LAUNCH.claude, env);
    await run('gemini', LAUNCH.gemini, env);
    const [c, g] = readFileSync(env.FAKE_AGENT_PROMPT_LOG, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(c).toMatchObject({ prompt: 'Fix the bug', system_prompt: 'CONTRACT', model: 'sonnet' });
    expect(g).toMatchObject({ prompt: 'CONTRACT\n\n---\n\nFix the bug', system_prompt: null });
  });

  it('a flag the real CLI does not know fails like the real parser (codex exec resume rejects -s)', () => {
    const r = spawnSync(join(fakes, 'codex'), ['exec', 'resume', '--json', '-s', 'read-only', 'abc', 'x'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unexpected argument '-s'/);
  });
});
