import { describe, expect, it } from 'vitest';
import { EMPTY, def, streamSuite, table } from '../../../../test/helpers/recorded-streams.js';
import { readStream } from './reader.js';

/*
 * Every stream kept in test/fixtures/harness-streams/<cli>/ for opencode and qwen (droid and kilo:
 * recorded-streams-b.test.ts; the others, and the guard that no provider's folder is left out:
 * recorded-streams-a.test.ts), read by its provider's reader. All are real runs against Jig's mock
 * model server; each expectation was worked out from the stream itself and the .rc/.exit and
 * .stderr beside it, not from what the reader printed. A "GAP" comment marks a figure the stream
 * holds that the reader leaves out.
 */
const NO_INPUT =
  'No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.';

streamSuite('readers against the recorded streams (opencode, qwen)', {
  // `opencode run --format json` (1.18.33): the same events as Kilo.
  opencode: {
    streams: table(
      { done: true },
      {
        'a-tool-noauto.jsonl': {
          sid: 'ses_dcf468404ffeOCcEj8iK1d1vSa',
          tok: [2700, 70, 300],
          text: 'Done. Committed f.txt.',
          tools: 1,
        },
        'a-tool.jsonl': {
          sid: 'ses_dcf556a3fffegcn2FZVGLy45m8',
          tok: [2700, 70, 300],
          text: 'Done. Committed f.txt.',
          tools: 1,
        },
        'b0-text-noflags.jsonl': {
          sid: 'ses_dcf55f44bffe8279Oc6xc2xszu',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'b1-text-flags.jsonl': {
          sid: 'ses_dcf55ba82ffea9VXMrzv3AnCqc',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'c-401.jsonl': {
          sid: 'ses_dcf546639ffeVAr2gy7eSZpsnh',
          err: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
        'd-429-noreset.jsonl': {
          sid: 'ses_dcf40c579ffersrzic1Ihh9Dyg',
          err: 'rate limit exceeded',
          hit: true,
        },
        // retry-after 2 and anthropic-ratelimit-unified-reset 1796113051 (the later rule wins).
        'd-429-short.jsonl': {
          sid: 'ses_dcf521410ffeJaaI93zgsTPmsi',
          err: 'rate limit exceeded',
          resets: '2026-12-01T08:17:31.000Z',
        },
        // Still retrying when `timeout` killed it (rc 124): nothing printed.
        'd-429.jsonl': EMPTY,
        'e-resume.jsonl': {
          sid: 'ses_dcf556a3fffegcn2FZVGLy45m8',
          tok: [2000, 15],
          text: 'Resumed: f.txt is committed.',
        },
        // The auto-rejected call ends the run (exit 0) right after a tool-calls step: no last step.
        'f-ask-rejected.jsonl': {
          sid: 'ses_dcf50a625ffePcvJvHOaJPtzOo',
          tok: [100, 20],
          text: 'I will run a command.',
          denials: 1,
          done: false,
          tools: 1,
        },
        // bash denied in the config is not offered: the model's `Bash` call comes back as the
        // `invalid` tool (an unknown tool, not a refusal), still one tool_use event: one call.
        'f-deny-config.jsonl': {
          sid: 'ses_dcf513420ffeOYpmy1YwpmXIYl',
          tok: [200, 40],
          text: 'Could not run the command.',
          tools: 1,
        },
        'f-deny-pattern.jsonl': {
          sid: 'ses_dcf50f050ffea1u0IXp5Mvpd6x',
          tok: [200, 40],
          text: 'Could not run the command.',
          denials: 1,
          tools: 1,
        },
        'g-bad-session.jsonl': EMPTY,
        'h-novariant-reasoning.jsonl': {
          sid: 'ses_dcf410429ffeMm0LJENGYzmPI1',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'h-variant-high-reasoning.jsonl': {
          sid: 'ses_dcf415a30ffeDTM5v1LI0RWGqO',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'h-variant-max-reasoning.jsonl': {
          sid: 'ses_dcf4131f3ffe6BrSUnSEFgtWDK',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'h-variant.jsonl': {
          sid: 'ses_dcf504233ffecagXeU5bb0D0Kr',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        // Chat Completions: the body names invalid_api_key.
        'i-chat-401.jsonl': {
          sid: 'ses_dcf419bf6ffezJXcHo2WH5QXNT',
          err: '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}',
        },
        'i-chat-tool.jsonl': {
          sid: 'ses_dcf41e04cffedcMw2BA0sn0g7R',
          tok: [2700, 70, 300],
          text: 'Done. Committed f.txt.',
          tools: 1,
        },
        'j-pgid.jsonl': { sid: 'ses_dcf3f40c6ffeOKa0zLxmrg98kW', tok: [200, 40], text: 'ok', tools: 1 },
        'x-debug.jsonl': {
          sid: 'ses_dcf54c018ffePvYRgmg6RFuE47',
          tok: [2700, 70, 300],
          text: 'Done. Committed f.txt.',
          tools: 1,
        },
      },
    ),
    // `opencode run -s <unknown id>`: exit 1, no JSON.
    stderr: { 'g-bad-session.stderr': { err: 'Session not found' } },
  },
  // `qwen --output-format stream-json` (0.24.4). Tokens: each assistant event's usage, input less
  // its cached part (a: 100 + 1200 in, 200 of them cached; 20 + 50 out).
  qwen: {
    streams: table(
      { model: 'claude-mock', done: true },
      {
        'a.jsonl': {
          sid: '86688c9e-7ad3-4529-9c4a-98e99babb8fa',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          tools: 1,
        },
        'b.jsonl': { sid: 'f7c65399-0cd9-4869-a0a9-8f93370f0ce7', tok: [100, 20], text: 'The answer is 42.' },
        'c.jsonl': {
          sid: '7a746949-f054-4c41-a057-c27ac0185118',
          err: '[API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}]',
        },
        // Two system/retry events (60 s, 120 s) for a 429, then killed by `timeout` (rc 124).
        'd-default-retries-timeout.jsonl': {
          sid: '7a52e21f-1c75-406b-b10b-d4de2eb9143f',
          hit: true,
          done: false,
        },
        // Killed while waiting out retry-after 30: nothing after init says why.
        'd-retry-after-30-timeout.jsonl': { sid: 'c4d90419-bb68-4978-a3b9-442614b9029e', done: false },
        'd.jsonl': {
          sid: 'ad41a6f9-c184-46ab-9d74-8a7ad06485c8',
          err: /^\[API Error: 429 .*"rate limit exceeded".*\]\nPossible quota limitations/,
          hit: true,
        },
        // Resumed runs: result.usage is the whole session's (1500/110, 1400/90); this launch's is 100/20.
        'e-fork.jsonl': {
          sid: '6dc8111a-7834-4512-a046-b9385728c0e4',
          tok: [100, 20],
          text: 'Resumed: I remember the commit.',
        },
        'e.jsonl': {
          sid: '86688c9e-7ad3-4529-9c4a-98e99babb8fa',
          tok: [100, 20],
          text: 'Resumed: I remember the commit.',
        },
        'f-allowed-shell-edit.jsonl': {
          sid: 'c99a6b0c-2b3e-4ffb-b161-4b8aa1b1b531',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          tools: 1,
        },
        // The shell call is denied (its tool_result is an error); result.permission_denials lists it.
        'f-allowed-shell-only.jsonl': {
          sid: '92150cd3-896b-4172-901e-a769c600309a',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          denials: 1,
          tools: 1,
        },
        'f-exclude-tools.jsonl': {
          sid: 'aac39798-963d-4a3b-938b-38d1f9fbd1bc',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          denials: 1,
          tools: 1,
        },
        'f.jsonl': {
          sid: '820aa94b-09e0-472e-a413-db9082f2fa6e',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          denials: 1,
          tools: 1,
        },
        'g-openai-chat.jsonl': {
          sid: '11111111-2222-4333-8444-555555555555',
          model: 'mock-model',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          tools: 1,
        },
        'h-claude-names.jsonl': {
          sid: 'f01df24a-5c38-4799-86b5-41f763518b85',
          tok: [1100, 70, 200],
          text: 'Done. f.txt is committed.',
          denials: 1,
          tools: 1,
        },
        // The prompt after `--` is not read: "No input provided via stdin", exit 1, no JSON.
        'h-dashdash.jsonl': EMPTY,
        'h-gemini-api.jsonl': {
          sid: 'c39ece42-b836-4c56-b42e-b41e57c0921a',
          model: 'gemini-mock',
          tok: [200, 40],
          text: 'Done via Gemini API.',
          tools: 1,
        },
        'h-narrow-grant-bash.jsonl': {
          sid: '2666d93b-0b13-453b-ac53-71835909f3bd',
          tok: [200, 40],
          text: 'Done.',
          denials: 1,
          tools: 1,
        },
        'h-narrow-grant.jsonl': {
          sid: '8d8ce14d-dcdb-4885-b89e-0c8b169d98a7',
          tok: [200, 40],
          text: 'Done.',
          tools: 1,
        },
        // Killed during a 300 s shell command (the process group with SIGTERM, then SIGKILL): no result.
        'k-kill-group.jsonl': {
          sid: 'f936806c-a570-4852-ba3e-cab5058c0d1c',
          tok: [100, 20],
          done: false,
          tools: 1,
        },
        'k-kill9-group.jsonl': {
          sid: 'd56aed39-f334-4bdb-a85d-bf2e6428e733',
          tok: [100, 20],
          done: false,
          tools: 1,
        },
        // GAP: result.usage says 1400 in / 110 out: the background sub-agent's 700 / 40 (its
        // task_notification tells only total_tokens 740) print no assistant event (qwen.yaml "Known gap").
        // One call (the `agent` tool); the notification says the sub-agent used no tool (tool_uses 0).
        's-subagent.jsonl': {
          sid: '25254378-b342-4e47-87d7-d3b89d9e4cc1',
          tok: [700, 70],
          text: 'Done.',
          tools: 1,
        },
        'x-connection-refused.jsonl': {
          sid: '543e73ac-be2c-44d0-a429-0fb5d87d0dfc',
          err: '[API Error: Connection error. (cause: connect ECONNREFUSED 127.0.0.1:41383)]',
        },
        // Fails before init: one result, no model.
        'x-missing-base-url.jsonl': {
          sid: '37da5a83-9e07-4d22-931f-b6c54c77faae',
          model: null,
          err: 'ANTHROPIC_BASE_URL environment variable not found.',
        },
        'x-prompt-swallowed-by-array-flag.jsonl': EMPTY,
      },
    ),
    // The prompt was never read: exit 1, this line and no JSON.
    stderr: {
      'h-dashdash.stderr': { err: NO_INPUT },
      'x-prompt-swallowed-by-array-flag.stderr': { err: NO_INPUT },
    },
  },
});

describe('qwen: parallel tool calls', () => {
  it('share one assistant message (one kind of block a message): each block is a call', () => {
    const block = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: {} });
    const message = { role: 'assistant', content: [block('a'), block('b')], usage: { input_tokens: 0 } };
    expect(readStream(def('qwen'), JSON.stringify({ type: 'assistant', message })).tool_calls).toBe(2);
  });
});
