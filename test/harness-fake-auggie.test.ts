import { describe, expect, it } from 'vitest';
import { buildArgv } from '../src/core/harness/build-argv.js';
import { readStream } from '../src/core/harness/readers/reader.js';
import { isAuthFailure } from '../src/runtime/workers/agent-session.js';
import { commits, fakes, providers, result, run, type Run } from './helpers/fake-run.js';

/*
 * The fake Auggie (test/fixtures/fake-agents/auggie, speaking what auggie 0.36.0 printed in the
 * captures) through the argv builder and the provider's reader: one result object at the end with
 * its cost, and failures that print only a line on stderr, which the reader's `lines` rules read
 * from the session's log (stdout and stderr together).
 */

const LAUNCH = { prompt: 'Fix the bug', context: 'CONTRACT', model: 'claude-sonnet-4-5', effort: 'high' };
const TOKENS = { FAKE_AGENT_TOKENS: '1000,200,300,40' };
/** The log Jig keeps: stdout and stderr in one file (here one after the other: a failure prints no JSON). */
const log = (r: Run) => readStream(providers.auggie!, r.stdout + r.stderr);

describe('fake auggie through the argv builder and reader', () => {
  it('fix: commits, writes {status: done}; the one result gives the id, the answer and the cost, no tokens', async () => {
    const r = await run('auggie', LAUNCH, { FAKE_AGENT_MODE: 'fix', ...TOKENS });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(result(r)).toEqual({ status: 'done' });
    expect(commits(r.cwd)).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.readout).toEqual({
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      model: null,
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      // (1000 + 300) × $3 + 200 × $15 per million tokens.
      cost_usd_reported: 0.0069,
      rate_limit: { hit: false, resets_at: null },
      is_error: false,
      error_message: null,
      permission_denials: 0,
      tool_calls: 0,
      final_text: 'Done.',
      done: true,
    });
    // Nothing streams while it runs: the readout is empty until the result line.
    expect(r.live.slice(0, -1).every((x) => !x.done)).toBe(true);
  });

  it('resume: the id goes back as --resume and comes back in the result', async () => {
    const id = '247f8ec6-dc6f-41b7-9707-bbd79cf8f60f';
    const r = await run('auggie', { ...LAUNCH, resume_session_id: id }, { FAKE_AGENT_MODE: 'done' });
    expect(r.code).toBe(0);
    expect(r.readout.session_id).toBe(id);
  });

  it('auth: no JSON, a ❌ line on stderr, exit 1; the log reads as a login failure', async () => {
    const r = await run('auggie', LAUNCH, { FAKE_AGENT_MODE: 'auth' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    const read = log(r);
    expect(read).toMatchObject({
      is_error: true,
      error_message: 'Authentication failed: HTTP error: 401 Unauthorized',
      rate_limit: { hit: false },
      done: false,
    });
    expect(isAuthFailure(read.error_message)).toBe(true);
  });

  it('rate_limit and fail: the stderr line says which, so a rate limit can fall back', async () => {
    const limited = log(await run('auggie', LAUNCH, { FAKE_AGENT_MODE: 'rate_limit' }));
    expect(limited).toMatchObject({ is_error: true, rate_limit: { hit: true } });
    expect(limited.error_message).toMatch(/Rate limited$/);
    const failed = log(await run('auggie', LAUNCH, { FAKE_AGENT_MODE: 'fail' }));
    expect(failed).toMatchObject({ is_error: true, rate_limit: { hit: false } });
    expect(isAuthFailure(failed.error_message)).toBe(false);
  });

  it('a launch that lists tools is refused, never run with the list ignored', () => {
    const built = buildArgv(providers.auggie!, {
      ...LAUNCH,
      allowed_tools: ['view'],
      executable: `${fakes}/auggie`,
    });
    expect(built).toEqual({ ok: false, reason: 'auggie cannot enforce an allowed-tools list' });
  });
});
