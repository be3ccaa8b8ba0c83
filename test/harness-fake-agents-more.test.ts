import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionReadout } from '../src/contract/harness/provider.js';
import { buildArgv, type LaunchInputs } from '../src/core/harness/build-argv.js';
import { commits, providers, repo, result, run, tempDir, type Run } from './helpers/fake-run.js';

/*
 * The fakes of the CLIs that could not be installed here (Cursor, OpenCode, Amp, Antigravity),
 * the `auth` mode of every fake, artifacts, and FAKE_AGENT_SCRIPT: spawned through the argv
 * builder, their streams read by the provider's reader, as in harness-fake-agents.test.ts.
 */
type NewId = 'cursor' | 'opencode' | 'amp' | 'antigravity';
const LAUNCH: Record<NewId, Omit<LaunchInputs, 'executable'>> = {
  cursor: { prompt: 'Fix the bug', context: 'CONTRACT', model: 'gpt-5', permission_mode: '--force' },
  opencode: { prompt: 'Fix the bug', context: 'CONTRACT', model: 'anthropic/claude-sonnet-4-5' },
  amp: { prompt: 'Fix the bug', context: 'CONTRACT', effort: 'high' },
  antigravity: { prompt: 'Fix the bug', context: 'CONTRACT', model: 'gemini-3-pro', effort: 'high' },
};
const SESSION: Record<NewId, RegExp> = {
  cursor: /^[0-9a-f-]{36}$/,
  opencode: /^ses_[0-9a-f]{26}$/,
  amp: /^T-[0-9a-f-]{36}$/,
  antigravity: /^[0-9a-f-]{36}$/,
};
/** What each definition's reader takes from a session of 1000 in, 200 out, 300 cache read, 40 cache write. */
const TOKENS: Record<NewId, SessionReadout['tokens']> = {
  // Cursor's from its result's usage; Amp's added over its two assistant messages.
  cursor: { input: 1000, output: 200, cache_read: 300, cache_write: 40 },
  amp: { input: 1000, output: 200, cache_read: 300, cache_write: 40 },
  opencode: { input: 1000, output: 200, cache_read: 300, cache_write: 40 },
  // Antigravity's steps tell input (cache reads inside it), output and cache reads; no cache writes.
  antigravity: { input: 1000, output: 200, cache_read: 300, cache_write: 0 },
};
/**
 * The answer as read: Antigravity's result carries every response of the run, one per line, so its
 * answer ends with the last one; the others' is the last message alone.
 */
const answer = (id: NewId, last: string): unknown =>
  id === 'antigravity' ? expect.stringMatching(new RegExp(`(^|\\n)${last.replace('.', '\\.')}\\n$`)) : last;
/** Definitions that read a rate-limit signal from the stream. */
const READS_RATE_LIMIT: Record<NewId, boolean> = {
  cursor: false,
  amp: false,
  opencode: true,
  antigravity: true,
};

describe.each(['cursor', 'opencode', 'amp', 'antigravity'] as const)(
  'fake %s through the argv builder and reader',
  (id) => {
    it('fix: commits a change, writes {status: done}, and reads as a finished session', async () => {
      const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'fix', FAKE_AGENT_TOKENS: '1000,200,300,40' });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(result(r)).toEqual({ status: 'done' });
      expect(commits(r.cwd)).toBe(2);
      expect(r.readout).toMatchObject({
        is_error: false,
        error_message: null,
        final_text: answer(id, 'Done.'),
        tokens: TOKENS[id],
        rate_limit: { hit: false, resets_at: null },
      });
      // OpenCode has no end-of-session event: its last step_finish that asks for no tool is the end.
      expect(r.readout.done).toBe(true);
      expect(r.readout.session_id).toMatch(SESSION[id]);
      if (id === 'cursor' || id === 'antigravity') expect(r.readout.model).toBe(LAUNCH[id].model);
    });

    it('done: no change, {status: done} with the artifact written and referenced', async () => {
      const cwd = repo();
      const r = await run(
        id,
        { ...LAUNCH[id], prompt: 'Write the spec' },
        { FAKE_AGENT_MODE: 'done', JIG_ARTIFACT_PATH: join(cwd, '.jig/artifacts/spec.md') },
        { cwd },
      );
      expect(r.code).toBe(0);
      expect(result(r)).toEqual({ status: 'done', artifact_ref: '.jig/artifacts/spec.md' });
      expect(readFileSync(join(cwd, '.jig/artifacts/spec.md'), 'utf8')).toMatch(/^# .+\n/);
      expect(commits(r.cwd)).toBe(1);
      expect(r.readout).toMatchObject({ is_error: false, final_text: answer(id, 'Done.') });
    });

    it('question: needs_context with the question', async () => {
      const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'question', FAKE_AGENT_QUESTION: 'Which API?' });
      expect(r.code).toBe(0);
      expect(result(r)).toEqual({ status: 'needs_context', question: 'Which API?' });
    });

    it('noop: a clean stream, no change, no result file (even with an artifact path)', async () => {
      const cwd = repo();
      const r = await run(
        id,
        LAUNCH[id],
        { FAKE_AGENT_MODE: 'noop', JIG_ARTIFACT_PATH: join(cwd, 'doc.md') },
        { cwd },
      );
      expect(r.code).toBe(0);
      expect(result(r)).toBeNull();
      expect(existsSync(join(cwd, 'doc.md'))).toBe(false);
      expect(commits(r.cwd)).toBe(1);
      expect(r.readout).toMatchObject({ is_error: false, final_text: answer(id, 'Finished.') });
    });

    it('fail: an error stream and a non-zero exit', async () => {
      const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'fail' });
      expect(r.code).not.toBe(0);
      expect(r.readout.is_error).toBe(true);
      expect(r.readout.error_message).toMatch(/500/);
      expect(r.readout.rate_limit.hit).toBe(false);
      expect(result(r)).toBeNull();
    });

    it('auth: the not-logged-in error, non-zero exit, no result file', async () => {
      const r = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'auth' });
      expect(r.code).toBe(1);
      expect(result(r)).toBeNull();
      expect(r.readout.is_error).toBe(true);
      expect(r.readout.error_message).toMatch(/login|401|authentication/i);
      expect(r.readout.rate_limit.hit).toBe(false);
    });

    it('rate_limit: an error, read as a rate limit where the definition reads one', async () => {
      const r = await run(id, LAUNCH[id], {
        FAKE_AGENT_MODE: 'rate_limit',
        FAKE_AGENT_RESETS_AT: '1795352400',
      });
      expect(r.code).not.toBe(0);
      expect(r.readout.is_error).toBe(true);
      expect(r.readout.error_message).toMatch(/limit|429/i);
      // No definition here reads a reset time.
      expect(r.readout.rate_limit).toEqual({ hit: READS_RATE_LIMIT[id], resets_at: null });
    });

    it('slow: streams as it goes', async () => {
      const r = await run(id, LAUNCH[id], {
        FAKE_AGENT_MODE: 'slow',
        FAKE_AGENT_STEPS: '3',
        FAKE_AGENT_DELAY_MS: '60',
        FAKE_AGENT_TOKENS: '300,30',
      });
      expect(r.code).toBe(0);
      expect(r.live.length).toBeGreaterThanOrEqual(3);
      expect(r.live[0]!.final_text === 'Finished.').toBe(false);
      expect(r.readout.final_text).toEqual(answer(id, 'Finished.'));
      if (id === 'opencode') {
        // OpenCode reports usage per step, so live figures grow before the end.
        const inputs = r.live.map((s) => s.tokens.input);
        expect(inputs).toContain(100);
        expect(inputs).toContain(200);
        expect(r.readout.tokens).toMatchObject({ input: 300, output: 30 });
      }
    });

    it('sleep: keeps running until stopped', async () => {
      const r = await run(
        id,
        LAUNCH[id],
        { FAKE_AGENT_MODE: 'sleep', FAKE_AGENT_DELAY_MS: '30000' },
        { killOn: (s) => s.session_id !== null },
      );
      // Ended by the stop, not by its 30 s sleep: no exit code (a signal) and no final event.
      expect(r.code).toBeNull();
      expect(r.readout.done).toBe(false);
    });

    it('resume: keeps the session id where the CLI resumes by id', async () => {
      if (id === 'amp') {
        // Amp cannot resume a session by id: the argv builder refuses.
        const built = buildArgv(providers.amp!, { prompt: 'x', resume_session_id: 'T-1' });
        expect(built.ok).toBe(false);
        return;
      }
      const first = await run(id, LAUNCH[id], { FAKE_AGENT_MODE: 'noop' });
      const again = await run(
        id,
        { prompt: 'Also the tests', resume_session_id: first.readout.session_id! },
        { FAKE_AGENT_MODE: 'noop' },
      );
      expect(again.code).toBe(0);
      expect(again.readout.session_id).toBe(first.readout.session_id);
    });
  },
);

describe('auth mode of the installed CLIs’ fakes (shapes from the reference samples)', () => {
  it('claude: an is_error result with subtype success, 401, "Please run /login", exit 1', async () => {
    const r = await run(
      'claude',
      { prompt: 'Fix the bug', context: 'CONTRACT' },
      { FAKE_AGENT_MODE: 'auth' },
    );
    expect(r.code).toBe(1);
    expect(result(r)).toBeNull();
    expect(r.readout).toMatchObject({
      done: true,
      is_error: true,
      error_message: 'Invalid API key · Please run /login',
      rate_limit: { hit: false },
    });
    expect(lastEvent(r)).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: true,
      api_error_status: 401,
    });
  });

  it('codex: reconnecting errors, then turn.failed with the 401, exit 1', async () => {
    const r = await run('codex', { prompt: 'Fix the bug', context: 'CONTRACT' }, { FAKE_AGENT_MODE: 'auth' });
    expect(r.code).toBe(1);
    expect(result(r)).toBeNull();
    expect(r.readout.is_error).toBe(true);
    expect(r.readout.error_message).toMatch(/^unexpected status 401 Unauthorized/);
    expect(r.readout.rate_limit.hit).toBe(false);
  });

  it('gemini: an error result saying the key is not valid, exit 144', async () => {
    const r = await run(
      'gemini',
      { prompt: 'Fix the bug', context: 'CONTRACT' },
      { FAKE_AGENT_MODE: 'auth' },
    );
    expect(r.code).toBe(144);
    expect(result(r)).toBeNull();
    expect(r.readout).toMatchObject({ done: true, is_error: true, rate_limit: { hit: false } });
    expect(r.readout.error_message).toMatch(/API key not valid/);
  });
});

/** The last JSON line the fake printed. */
function lastEvent(r: Run): unknown {
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

describe('result fields from the environment', () => {
  it('FAKE_AGENT_VERDICT, FAKE_AGENT_FINDINGS and FAKE_AGENT_CONCERNS go into the result file', async () => {
    const findings = [
      { severity: 'important', message: 'Off by one', file: 'src/a.ts', line: 3, same_as: 'F1' },
    ];
    const r = await run(
      'gemini',
      { prompt: 'Judge', context: 'CONTRACT' },
      {
        FAKE_AGENT_MODE: 'done',
        FAKE_AGENT_VERDICT: 'stop_needs_human',
        FAKE_AGENT_FINDINGS: JSON.stringify(findings),
        FAKE_AGENT_CONCERNS: 'The repairs go in circles.',
      },
    );
    expect(r.code).toBe(0);
    expect(result(r)).toEqual({
      status: 'done',
      verdict: 'stop_needs_human',
      findings,
      concerns: 'The repairs go in circles.',
    });
  });

  it('FAKE_AGENT_FINDINGS that is not a JSON array fails the run like a bad flag', async () => {
    const r = await run('codex', { prompt: 'x' }, { FAKE_AGENT_MODE: 'done', FAKE_AGENT_FINDINGS: '{nope' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/FAKE_AGENT_FINDINGS/);
  });
});

describe('FAKE_AGENT_SCRIPT drives a whole chain', () => {
  function script(body: unknown): { file: string; counts: () => Record<string, number> } {
    const dir = tempDir('jig-fake-script-');
    const file = join(dir, 'script.json');
    writeFileSync(file, JSON.stringify(body));
    return { file, counts: () => JSON.parse(readFileSync(`${file}.count.json`, 'utf8')) };
  }

  it('picks a rule per task from the prompt or system prompt, counts uses, falls back to default', async () => {
    const s = script({
      rules: [
        { match: 'Write the spec', mode: 'done', artifact: '# Spec\n\nThe spec.\n' },
        { match: 'Implement', mode: 'fix', tokens: '5000,700' },
        {
          match: 'SKILL: code-review',
          mode: 'done',
          status: 'done_with_concerns',
          concerns: 'One problem left.',
          findings: [{ severity: 'critical', message: 'SQL injection', file: 'src/db.ts', line: 12 }],
          times: 1,
        },
        { match: 'SKILL: code-review', mode: 'done', findings: [] },
        { match: 'SKILL: fix-loop-judge', mode: 'done', verdict: 'continue', concerns: 'Progressing.' },
      ],
      default: { mode: 'fail' },
    });
    const logs = tempDir('jig-fake-logs-');
    const env = { FAKE_AGENT_SCRIPT: s.file, FAKE_AGENT_PROMPT_LOG: join(logs, 'p.jsonl') };
    const cwd = repo();
    const artifact = join(cwd, '.jig/spec.md');

    const spec = await run(
      'claude',
      { prompt: 'Write the spec for the item.', context: 'CONTRACT' },
      { ...env, JIG_ARTIFACT_PATH: artifact },
      { cwd },
    );
    expect(result(spec)).toEqual({ status: 'done', artifact_ref: '.jig/spec.md' });
    expect(readFileSync(artifact, 'utf8')).toBe('# Spec\n\nThe spec.\n');

    const impl = await run('claude', { prompt: 'Implement the plan.', context: 'CONTRACT' }, env, { cwd });
    expect(result(impl)).toEqual({ status: 'done' });
    expect(impl.readout.tokens).toMatchObject({ input: 5000, output: 700 });
    expect(commits(cwd)).toBe(2);

    // The review and judge rules match the skill text in the system prompt (appended for Claude,
    // developer instructions for Codex).
    const review = { prompt: 'Review the change.', context: 'CONTRACT\n\nSKILL: code-review' };
    const first = await run('claude', review, env, { cwd });
    expect(result(first)).toEqual({
      status: 'done_with_concerns',
      concerns: 'One problem left.',
      findings: [{ severity: 'critical', message: 'SQL injection', file: 'src/db.ts', line: 12 }],
    });
    const second = await run('codex', review, env, { cwd });
    expect(result(second)).toEqual({ status: 'done', findings: [] });

    const judge = await run(
      'claude',
      { prompt: 'Decide.', context: 'CONTRACT\n\nSKILL: fix-loop-judge' },
      env,
      { cwd },
    );
    expect(result(judge)).toEqual({ status: 'done', verdict: 'continue', concerns: 'Progressing.' });

    const other = await run('gemini', { prompt: 'Something else' }, env, { cwd });
    expect(other.code).not.toBe(0);
    expect(other.readout.is_error).toBe(true);

    expect(s.counts()).toEqual({ '0': 1, '1': 1, '2': 1, '3': 1, '4': 1, default: 1 });
    const rules = readFileSync(env.FAKE_AGENT_PROMPT_LOG, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { rule: unknown }).rule);
    expect(rules).toEqual([0, 1, 2, 3, 4, 'default']);
  });

  it('script fields override the environment knobs; without a match or default the env applies', async () => {
    const s = script({ rules: [{ match: 'special', mode: 'question', question: 'From the script?' }] });
    const env = { FAKE_AGENT_SCRIPT: s.file, FAKE_AGENT_MODE: 'done', FAKE_AGENT_QUESTION: 'From env?' };
    const special = await run('amp', { prompt: 'a special task' }, env);
    expect(result(special)).toEqual({ status: 'needs_context', question: 'From the script?' });
    const plain = await run('amp', { prompt: 'a plain task' }, env);
    expect(result(plain)).toEqual({ status: 'done' });
    expect(s.counts()).toEqual({ '0': 1 });
  });

  it('counts stay exact when runs go in parallel', async () => {
    const s = script({
      rules: [{ match: 'review', mode: 'done', verdict: 'first', times: 2 }],
      default: { mode: 'done', verdict: 'later' },
    });
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => run('claude', { prompt: 'review it' }, { FAKE_AGENT_SCRIPT: s.file })),
    );
    const verdicts = runs.map((r) => (result(r) as { verdict: string }).verdict).sort();
    expect(verdicts).toEqual(['first', 'first', 'later', 'later', 'later', 'later']);
    expect(s.counts()).toEqual({ '0': 2, default: 4 });
  });

  it('a script with an unknown field fails the run with a clear message', async () => {
    const s = script({ rules: [{ match: 'x', mood: 'happy' }] });
    const r = await run('claude', { prompt: 'x' }, { FAKE_AGENT_SCRIPT: s.file });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown field "mood"/);
  });
});
