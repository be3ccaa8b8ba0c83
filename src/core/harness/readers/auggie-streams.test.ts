import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProviderDefinition, SessionReadout } from '../../../contract/harness/provider.js';
import { loadProviders } from '../load-providers.js';
import { createReader, emptyReadout, readStream } from './reader.js';

/*
 * Auggie 0.36.0's real output, recorded against a loopback stand-in of Augment's backend
 * (test/fixtures/harness-streams/auggie/README.md says which argv made which file). With
 * `--output-format json` the only JSON is one result object at the end; every failure recorded
 * printed none (its message is plain text on stderr, which the `lines` rules read). Nothing in
 * the output tells the tool calls or denials, so tool_calls and permission_denials stay 0.
 */
const dir = fileURLToPath(new URL('../../../../defaults/harnesses/', import.meta.url));
const { providers, problems } = loadProviders({
  packaged: readdirSync(dir).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(dir + f, 'utf8'),
  })),
});
const auggie = (): ProviderDefinition => {
  const d = providers['auggie'];
  if (!d) throw new Error(`auggie did not load: ${JSON.stringify(problems)}`);
  return d;
};
const STREAMS = fileURLToPath(new URL('../../../../test/fixtures/harness-streams/auggie/', import.meta.url));
const text = (file: string): string => readFileSync(STREAMS + file, 'utf8');

type Over = Omit<Partial<SessionReadout>, 'tokens'> & { tokens?: Partial<SessionReadout['tokens']> };
const r = (over: Over): SessionReadout => {
  const base = emptyReadout();
  return { ...base, ...over, tokens: { ...base.tokens, ...over.tokens } };
};

/** What each recorded file reads as, taken from the file itself. */
const EXPECTED: Record<string, SessionReadout> = {
  // `--show-cost`: billing.total_cost 0.0165 USD (two billing nodes, 0.0123 + 0.0042). No tokens,
  // no model in the result.
  'success-tool-commit.captured.jsonl': r({
    session_id: '3cf626b7-a521-4010-8ea0-8d8493a0c8b0',
    cost_usd_reported: 0.0165,
    final_text: 'Done.',
    done: true,
  }),
  // The argv Jig builds (--instruction … --model mock --reasoning-effort high --show-cost …).
  'success-jig-argv.captured.jsonl': r({
    session_id: '247f8ec6-dc6f-41b7-9707-bbd79cf8f60f',
    cost_usd_reported: 0.0165,
    final_text: 'Done.',
    done: true,
  }),
  // `--resume 3cf626b7-…` (without --show-cost): the same session id, no billing.
  'resume.captured.jsonl': r({
    session_id: '3cf626b7-a521-4010-8ea0-8d8493a0c8b0',
    final_text: 'Done.',
    done: true,
  }),
  // `--permission launch-process:deny`: the tool was denied, but the result does not say so (and
  // no output tells the call itself: tool_calls 0 here as everywhere).
  'permission-denied-tool.captured.jsonl': r({
    session_id: 'a90f68b1-57c1-4141-bd53-ea211926912c',
    final_text: 'Done.',
    done: true,
  }),
  // `--model nope`: a plain-text warning line first (skipped), then the result of the default model.
  'unknown-model-warning.captured.jsonl': r({
    session_id: '0e682e62-3a30-4836-b35c-78924577dc9c',
    final_text: 'Done.',
    done: true,
  }),
  // 401, 429 and 500: exit 1 with an empty stdout; nothing to read.
  'auth-failure.captured.jsonl': r({}),
  'rate-limit-429.captured.jsonl': r({}),
  'server-500.captured.jsonl': r({}),
};

/** Stdout and stderr recorded apart: plain text, read only by the `lines` rules. */
const PLAIN: Record<string, SessionReadout> = {
  // The cause is the ❌ line (the "Warning: … 401 Unauthorized" lines before it are not read).
  'auth-failure.captured.stderr': r({
    is_error: true,
    error_message: 'Authentication failed: HTTP error: 401 Unauthorized',
  }),
  // Only a notice: the run stopped after one turn, exit 0.
  'max-turns.captured.stdout': r({}),
  // The first ❌ line is the cause; the generic "Failed to initialize API connection" after it is not.
  'no-auth.captured.stderr': r({
    is_error: true,
    error_message:
      'No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH environment variable.',
  }),
  'no-auth.captured.stdout': r({}),
  'rate-limit-429.captured.stderr': r({
    is_error: true,
    error_message:
      'Agent execution failed: Request failed after exceeding retry timeout of 10s: Rate limited',
    rate_limit: { hit: true, resets_at: null },
  }),
  'server-500.captured.stderr': r({
    is_error: true,
    error_message:
      'Agent execution failed: Request failed after exceeding retry timeout of 5s: unavailable: HTTP error: 500 Internal Server Error',
  }),
  'unknown-resume.captured.stderr': r({
    is_error: true,
    error_message:
      "Failed to initialize agent: Failed to resume session: No session found matching '00000000-1111-2222-3333-444444444444'.",
  }),
};

describe('auggie: the recorded 0.36.0 output, read', () => {
  it('every recorded file is expected here', () => {
    const files = readdirSync(STREAMS).filter((f) => f.includes('.captured.'));
    expect(files.sort()).toEqual([...Object.keys(EXPECTED), ...Object.keys(PLAIN)].sort());
  });

  it.each(Object.keys(EXPECTED))('%s', (file) => {
    expect(readStream(auggie(), text(file))).toEqual(EXPECTED[file]);
  });

  it.each(Object.keys(PLAIN))('%s (plain text)', (file) => {
    expect(readStream(auggie(), text(file))).toEqual(PLAIN[file]);
  });

  it('the log Jig keeps (stdout, then stderr) of a failure reads as the stderr does', () => {
    for (const run of ['auth-failure', 'rate-limit-429', 'server-500']) {
      const log = text(`${run}.captured.jsonl`) + text(`${run}.captured.stderr`);
      expect(readStream(auggie(), log), run).toEqual(PLAIN[`${run}.captured.stderr`]);
    }
    // A warning line before the result is not an error.
    expect(readStream(auggie(), text('unknown-model-warning.captured.jsonl')).is_error).toBe(false);
  });

  it('read as it arrives, a few bytes at a time, gives the same readout', () => {
    for (const file of Object.keys(EXPECTED)) {
      const reader = createReader(auggie());
      const all = text(file);
      for (let i = 0; i < all.length; i += 7) reader.chunk(all.slice(i, i + 7));
      reader.end();
      expect(reader.snapshot(), file).toEqual(EXPECTED[file]);
    }
  });

  it('a billing figure in another unit is not read as dollars; an error result gives its text', () => {
    const line = JSON.parse(text('success-jig-argv.captured.jsonl').trim()) as Record<string, unknown>;
    const credits = { ...line, billing: { usage_unit: 'credits', total_cost: 12 } };
    expect(readStream(auggie(), JSON.stringify(credits)).cost_usd_reported).toBeNull();
    // Never recorded (no failure printed a result): the same result with is_error true.
    const failed = { ...line, is_error: true, subtype: 'error', result: 'Something broke' };
    expect(readStream(auggie(), JSON.stringify(failed))).toEqual(
      r({
        session_id: '247f8ec6-dc6f-41b7-9707-bbd79cf8f60f',
        cost_usd_reported: 0.0165,
        is_error: true,
        error_message: 'Something broke',
        done: true,
      }),
    );
  });
});
