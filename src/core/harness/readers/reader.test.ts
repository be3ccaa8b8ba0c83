import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProviderDefinition, SessionReadout } from '../../../contract/harness/provider.js';
import { loadProviders } from '../load-providers.js';
import { createReader, emptyReadout, readStream } from './reader.js';

const dir = fileURLToPath(new URL('../../../../defaults/harnesses/', import.meta.url));
const { providers } = loadProviders({
  packaged: readdirSync(dir).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(dir + f, 'utf8'),
  })),
});
const def = (id: string): ProviderDefinition => providers[id]!;
// Copies of the reference notes' samples (real CLI output against a mock model server).
const SAMPLES = fileURLToPath(new URL('./samples', import.meta.url));
const NOW = Date.parse('2026-11-22T12:00:00Z');

type Over = Omit<Partial<SessionReadout>, 'tokens'> & { tokens?: Partial<SessionReadout['tokens']> };
const r = (over: Over): SessionReadout => {
  const base = emptyReadout();
  return { ...base, ...over, tokens: { ...base.tokens, ...over.tokens } };
};

/** Exact expected readouts for every sample the reference notes ship. */
const EXPECTED: Record<string, SessionReadout> = {
  'claude-sample-auth-error.jsonl': r({
    session_id: '548f8956-7307-43e0-af9a-28eac70b598a',
    model: 'claude-opus-4-8[1m]',
    cost_usd_reported: 0,
    is_error: true,
    error_message: 'Invalid API key · Fix external API key',
    done: true,
  }),
  'claude-sample-error-max-turns.jsonl': r({
    session_id: 'b8f3716c-4fb2-483b-aec4-2134b2edd05f',
    model: 'claude-opus-4-8[1m]',
    tokens: { input: 104, output: 20 },
    cost_usd_reported: 0.00102,
    is_error: true,
    error_message: 'Reached maximum number of turns (1)',
    tool_calls: 1,
    done: true,
  }),
  'claude-sample-mcp-permission-denied.jsonl': r({
    session_id: 'cd3507b9-ba03-45ff-bf7d-5fb3ea572b91',
    model: 'claude-opus-4-8[1m]',
    tokens: { input: 215, output: 40 },
    cost_usd_reported: 0.002075,
    permission_denials: 1,
    final_text: 'The command printed mock-tool-ok. Done.',
    tool_calls: 1,
    done: true,
  }),
  'claude-sample-partial-messages.jsonl': r({
    session_id: '4b7c6447-5a09-4cd4-9af1-1ea2d243c611',
    model: 'claude-opus-4-8[1m]',
    tokens: { input: 101, output: 20 },
    cost_usd_reported: 0.001005,
    final_text: 'Hello from the mock model.',
    done: true,
  }),
  'claude-sample-stream-json.jsonl': r({
    session_id: 'f0eaaa8a-f14d-4861-a6cf-1c830d72eaa6',
    model: 'claude-sonnet-4-5',
    tokens: { input: 203, output: 40 },
    cost_usd_reported: 0.001209,
    final_text: 'The command printed mock-tool-ok. Done.',
    tool_calls: 1,
    done: true,
  }),
  'codex-sample-exec-json-401.jsonl': r({
    session_id: '01a203c3-c670-7462-aef2-912695af5f66',
    is_error: true,
    error_message: 'unexpected status 401 Unauthorized: Incorrect API key provided (mock), url: <mock-url>',
    done: true,
  }),
  'codex-sample-exec-json-mcp.jsonl': r({
    session_id: '01a203c4-3084-7702-8232-6f058facf892',
    tokens: { input: 187, output: 40, cache_read: 20 },
    final_text: 'The command printed mock-tool-ok. Done.',
    tool_calls: 1,
    done: true,
  }),
  // Cut off while Codex was still retrying: not done, and "Reconnecting…" is not an error.
  'codex-sample-exec-json-offline.jsonl': r({ session_id: '01a203c4-3d83-7032-b4a1-14f832fd916a' }),
  'codex-sample-exec-json.jsonl': r({
    session_id: '01a203c3-b25a-7403-8523-6d28bcb6ba10',
    tokens: { input: 183, output: 40, cache_read: 20 },
    final_text: 'The command printed mock-tool-ok. Done.',
    tool_calls: 1,
    done: true,
  }),
  'gemini-sample-stream-json-api-error.jsonl': r({
    session_id: 'c28e3cbb-c546-4ee2-b83c-aaa1af609cb8',
    model: 'auto',
    is_error: true,
    error_message:
      '[API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key. (mock)","status":"INVALID_ARGUMENT"}}]',
    done: true,
  }),
  'gemini-sample-stream-json-tool.jsonl': r({
    session_id: '5302f7ed-9dd6-42e2-9687-99d7204b6601',
    model: 'mock',
    tokens: { input: 270, output: 60, cache_read: 30 },
    final_text: 'The command printed mock-tool-ok. Done.',
    tool_calls: 1,
    done: true,
  }),
  'gemini-sample-stream-json.jsonl': r({
    session_id: '12f5a565-1f3d-44a5-bd11-9db0f05141f1',
    model: 'mock',
    tokens: { input: 180, output: 40, cache_read: 20 },
    final_text: 'Hello from the mock model.',
    done: true,
  }),
};

describe('readers against every reference sample', () => {
  const files = readdirSync(SAMPLES).filter((f) => f.endsWith('.jsonl'));

  it('every sample has an expectation', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    const id = file.split('-')[0]!;
    const text = readFileSync(`${SAMPLES}/${file}`, 'utf8');
    it(`${file}: whole stream`, () => {
      expect(readStream(def(id), text, { now: () => NOW })).toEqual(EXPECTED[file]);
    });
    it(`${file}: fed in 7-byte chunks with garbage between lines`, () => {
      const reader = createReader(def(id), { now: () => NOW });
      const noisy = text
        .split('\n')
        .map((l) => `${l}\nnot json at all\n{"broken": \n[1,2]\n`)
        .join('');
      for (let i = 0; i < noisy.length; i += 7) reader.chunk(noisy.slice(i, i + 7));
      reader.end();
      expect(reader.snapshot()).toEqual(EXPECTED[file]);
    });
  }
});

describe('claude reader: live tokens', () => {
  const text = readFileSync(`${SAMPLES}/claude-sample-stream-json.jsonl`, 'utf8').split('\n');
  it('counts a message once however many content blocks repeat its usage', () => {
    const reader = createReader(def('claude'));
    // init + two assistant events of msg_mock_1 (same usage), then msg_mock_2
    for (const l of text.slice(0, 3)) reader.line(l);
    expect(reader.snapshot().tokens).toEqual({ input: 101, output: 1, cache_read: 0, cache_write: 0 });
    expect(reader.snapshot().done).toBe(false);
    for (const l of text.slice(3, 5)) reader.line(l);
    expect(reader.snapshot().tokens).toEqual({ input: 203, output: 2, cache_read: 0, cache_write: 0 });
    reader.line(text[5]!);
    // The result's totals replace the live figures.
    expect(reader.snapshot().tokens).toEqual({ input: 203, output: 40, cache_read: 0, cache_write: 0 });
  });

  it('sums modelUsage over models (sub-agents, a second model) and reads cache tokens', () => {
    const result = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'ok',
      session_id: 's',
      total_cost_usd: 0.5,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 3,
      },
      modelUsage: {
        'claude-opus-4-8': {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadInputTokens: 7,
          cacheCreationInputTokens: 3,
        },
        'claude-haiku-4-5': {
          inputTokens: 100,
          outputTokens: 50,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 1,
        },
      },
      permission_denials: [],
    };
    expect(readStream(def('claude'), JSON.stringify(result)).tokens).toEqual({
      input: 110,
      output: 55,
      cache_read: 7,
      cache_write: 4,
    });
  });
});

describe('rate limits (synthetic streams)', () => {
  it('claude: rate_limit_event rejected with its reset, then a 429 result', () => {
    const lines = [
      { type: 'system', subtype: 'init', session_id: 's1', model: 'claude-sonnet-4-5' },
      {
        type: 'rate_limit_event',
        rate_limit_info: { status: 'rejected', resetsAt: 1795370400, rateLimitType: 'five_hour' },
        session_id: 's1',
      },
      {
        type: 'assistant',
        message: {
          id: 'x',
          model: '<synthetic>',
          content: [{ type: 'text', text: "You've hit your limit" }],
        },
        error: 'rate_limit',
        session_id: 's1',
      },
      {
        type: 'result',
        subtype: 'success',
        is_error: true,
        api_error_status: 429,
        result: "You've hit your limit · resets 6pm",
        session_id: 's1',
        total_cost_usd: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
        modelUsage: {},
        permission_denials: [],
      },
    ];
    const out = readStream(def('claude'), lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(out.rate_limit).toEqual({ hit: true, resets_at: '2026-11-22T18:00:00.000Z' });
    expect(out.is_error).toBe(true);
    expect(out.error_message).toBe("You've hit your limit · resets 6pm");
  });

  it('claude: an allowed rate_limit_event is not a hit', () => {
    const l = { type: 'rate_limit_event', rate_limit_info: { status: 'allowed_warning', resetsAt: 1 } };
    expect(readStream(def('claude'), JSON.stringify(l)).rate_limit).toEqual({ hit: false, resets_at: null });
  });

  it('codex: turn.failed with a usage-limit message and an ISO reset', () => {
    const lines = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'turn.started' },
      {
        type: 'turn.failed',
        error: { message: "You've hit your usage limit. Try again at 2026-11-22T18:00:00Z." },
      },
    ];
    const out = readStream(def('codex'), lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(out.rate_limit).toEqual({ hit: true, resets_at: '2026-11-22T18:00:00.000Z' });
    expect(out.is_error && out.done).toBe(true);
  });

  it('codex: a 429 without a parseable reset is a hit with resets_at null', () => {
    const l = {
      type: 'turn.failed',
      error: { message: 'exceeded retry limit, last status: 429 Too Many Requests' },
    };
    expect(readStream(def('codex'), JSON.stringify(l)).rate_limit).toEqual({ hit: true, resets_at: null });
  });

  it('gemini: 429 RESOURCE_EXHAUSTED with "retry in Ns" resets relative to the clock', () => {
    const l = {
      type: 'result',
      status: 'error',
      error: {
        type: 'unknown',
        message:
          '[API Error: {"error":{"code":429,"message":"Resource has been exhausted. Please retry in 30s.","status":"RESOURCE_EXHAUSTED"}}]',
      },
      stats: { total_tokens: 0, input_tokens: 0, output_tokens: 0, cached: 0, models: {} },
    };
    const out = readStream(def('gemini'), JSON.stringify(l), { now: () => NOW });
    expect(out.rate_limit).toEqual({ hit: true, resets_at: '2026-11-22T12:00:30.000Z' });
    expect(readStream(def('gemini'), JSON.stringify(l)).rate_limit).toEqual({ hit: true, resets_at: null });
  });
});

describe('counts', () => {
  it('add counts events ({const: 1}) and lists ({as: count}) into tool_calls and permission_denials', () => {
    const base = def('codex');
    const own: ProviderDefinition = {
      ...base,
      reader: {
        format: 'jsonl',
        hooks: [],
        rules: [
          { when: { '$.t': 'call' }, add: { tool_calls: { const: 1, as: 'value' } } },
          { when: { '$.t': 'denied' }, add: { permission_denials: { path: '$.ids', as: 'count' } } },
          // A count set after adds replaces them: the CLI's own total wins.
          { when: { '$.t': 'total' }, set: { tool_calls: '$.n' } },
        ],
        lines: [],
      },
    };
    const lines = ['{"t":"call"}', '{"t":"call"}', '{"t":"denied","ids":[1,2]}', '{"t":"denied","ids":"x"}'];
    const out = readStream(own, lines.join('\n'));
    expect([out.tool_calls, out.permission_denials]).toEqual([2, 2]);
    expect(readStream(own, [...lines, '{"t":"total","n":7}', '{"t":"call"}'].join('\n')).tool_calls).toBe(8);
  });
});

describe('lines that are not events', () => {
  it('only `lines` rules read them: stderr text sets an error or a rate limit, with a capture', () => {
    const base = def('codex');
    const own: ProviderDefinition = {
      ...base,
      reader: {
        ...base.reader,
        lines: [
          {
            when: { $: { matches: '^❌ ' } },
            set: {
              is_error: { const: true, as: 'value' },
              error_message: { path: '$', regex: '^❌ (.*)$', as: 'value' },
            },
          },
          {
            when: { $: { matches: 'rate limited' } },
            set: { 'rate_limit.hit': { const: true, as: 'value' } },
          },
        ],
      },
    };
    const text = [
      '{"type":"thread.started","thread_id":"t1"}',
      '❌ No auth provided. Please log in.',
      'Warning: Rate limited, retrying',
      '{"type":"mystery","note":"❌ not a line rule: a JSON object"}',
      '[1,2]',
    ].join('\n');
    const out = readStream(own, text);
    expect(out).toMatchObject({
      session_id: 't1',
      is_error: true,
      error_message: 'No auth provided. Please log in.',
      rate_limit: { hit: true, resets_at: null },
    });
    // The packaged Codex file has no `lines` rules: the same text sets nothing.
    expect(readStream(base, text)).toEqual({ ...emptyReadout(), session_id: 't1' });
  });
});

describe('garbage', () => {
  it('ignores non-JSON, arrays, scalars, unknown event types and unknown keys', () => {
    const text = [
      'Warning: something on stdout',
      '',
      '[1,2,3]',
      '42',
      '"str"',
      '{"type":"mystery","session_id":"nope"}',
      '{"type":"thread.started","thread_id":"t9","extra":{"deep":[1]}}',
      '{"type":"turn.completed","usage":{"input_tokens":"lots","output_tokens":5}}',
    ].join('\n');
    const out = readStream(def('codex'), text);
    expect(out.session_id).toBe('t9');
    expect(out.tokens).toEqual({ input: 0, output: 5, cache_read: 0, cache_write: 0 });
    expect(out.done).toBe(true);
  });

  it('a snapshot is a copy', () => {
    const reader = createReader(def('codex'));
    reader.line('{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":5}}');
    const s = reader.snapshot();
    s.tokens.input = 999;
    expect(reader.snapshot().tokens.input).toBe(5);
  });
});
