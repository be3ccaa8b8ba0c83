import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EMPTY,
  STREAMS,
  def,
  providers,
  streamSuite,
  table,
} from '../../../../test/helpers/recorded-streams.js';
import { readStream } from './reader.js';

/*
 * Every stream kept in test/fixtures/harness-streams/<cli>/ (amp, antigravity, cursor, copilot here;
 * droid and kilo in recorded-streams-b.test.ts, opencode and qwen in recorded-streams-c.test.ts),
 * read by its provider's reader. Each expectation was worked out from the stream itself (and the
 * folder's README, or the .rc/.stderr beside it), not from what the reader printed. A "GAP" comment
 * marks a figure the stream holds that the reader knowingly leaves out, and why.
 */

/** The CLIs whose recorded streams these three files read (auggie: auggie-streams.test.ts). */
const ALL_CLIS = ['amp', 'antigravity', 'copilot', 'cursor', 'droid', 'kilo', 'opencode', 'qwen'];

describe('recorded streams', () => {
  it('every provider with recorded streams is read in recorded-streams-a, -b or -c', () => {
    const withStreams = readdirSync(STREAMS).filter(
      (cli) => providers[cli] !== undefined && cli !== 'auggie',
    );
    expect(withStreams.sort()).toEqual(ALL_CLIS);
  });

  it('amp: every tool_use block of a message is a call (none recorded has two)', () => {
    const block = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: {} });
    const content = [{ type: 'text', text: 'Reading.' }, block('a'), block('b'), block('c')];
    const line = JSON.stringify({ type: 'assistant', message: { role: 'assistant', content } });
    expect(readStream(def('amp'), line).tool_calls).toBe(3);
  });
});

streamSuite('readers against the recorded streams (amp, antigravity, cursor, copilot)', {
  // Hand-written in the shape decoded from amp's binary and Amp's manual (README): one assistant
  // event per message, whole, with its usage (input without the cached part).
  amp: {
    streams: table(
      { sid: 'T-019d2b7e-4a1c-7f3e-9b2d-6c8e0f1a2b3c', done: true },
      {
        'auth-failure.jsonl': EMPTY,
        // Bash was "ask" without --dangerously-allow-all: the one tool_use was refused, and the run
        // ends there.
        'error-approval-blocked.jsonl': {
          tok: [305, 41, 16410, 0],
          err: 'The following tools require user approval, which is not supported in stream JSON mode: Bash',
          denials: 1,
          tools: 1,
        },
        'error-server.jsonl': { err: 'Out of credits. Add credits at ampcode.com/settings to continue.' },
        // Two messages (412 + 188 in, 96 + 14 out, 15872 + 17776 read, 1904 + 240 written); the
        // tool_use is the second block of the first.
        'success-tool.jsonl': {
          tok: [600, 110, 33648, 2144],
          text: 'Done: the greeting is fixed and committed.',
          tools: 1,
        },
      },
    ),
    // Real stderr of amp 0.0.1790142911 (stdout empty, exit 1).
    stderr: {
      'captured-auth-failure.stderr': {
        err: "Invalid or missing API key. Run 'amp login' to authenticate.",
      },
      'captured-offline-websocket-failure.stderr': {
        err: 'WebSocket connection failed. Check your connection or proxy settings and retry.',
      },
    },
  },
  // Hand-written after agy 1.3.x captures: `event` init / step_update / result{…}. Tokens are the
  // per-step usage (result.usage is the whole conversation's, resumed runs included). A tool call is
  // a `tool` step, counted when it closes.
  antigravity: {
    streams: table(
      { done: true },
      {
        // Signed out / bad model: only a result, with an empty conversation_id.
        'auth-failure.jsonl': { err: 'authentication failed or timed out' },
        'error-invalid-model.jsonl': {
          err: /^invalid model selection \(--model "no-such-model".*\nAvailable models:/s,
        },
        // GAP: the open step never closes, so its usage (13082 in, 273 out) is only in result.usage.
        'error-interrupted.jsonl': {
          sid: 'f40d7a1e-8c2b-4b7e-9d1e-6a3c5b2e9f10',
          model: 'gemini-3.8-flash',
          err: 'interrupted',
        },
        // request-review blocked run_command: its step still ends DONE; SUCCESS, an empty response,
        // one denied action.
        'shell-denied.jsonl': {
          sid: 'ff4c257b-5047-4079-855e-f2d6e1eddfbf',
          tok: [13075, 90],
          text: '',
          denials: 1,
          tools: 1,
        },
        'success-tool.jsonl': {
          sid: '5f0c2b9e-3d41-4c1a-9a57-2f6d0e8b7a13',
          model: 'gemini-3.8-flash',
          tok: [13075 + 13299, 90 + 77],
          text: 'I will make the change and commit it.\nDone.\n',
          tools: 1,
        },
      },
    ),
  },
  // Hand-written after the documented format and captured lines (README): tokens are the result's
  // usage{inputTokens,outputTokens,cacheReadTokens,cacheWriteTokens}; each tool_call started is a
  // call.
  cursor: {
    streams: table(
      { sid: '3b1f7c2e-8d4a-4f6b-9c0e-5a2d7e9f1b34', model: 'Auto', done: true },
      {
        'auth-failure.jsonl': EMPTY,
        // Ends after a `connection` reconnecting event, with no result.
        'error-midstream.jsonl': { done: false },
        'shell-rejected-no-force.jsonl': {
          tok: [9120, 41],
          text: 'I could not run the command: it was rejected.',
          denials: 1,
          tools: 1,
        },
        // An edit and a shell call.
        'success-tool.jsonl': {
          model: 'Claude Sonnet 5 300K High',
          tok: [14948, 103, 12032, 0],
          text: 'I will make the change and commit it.Done: the greeting is fixed and committed.',
          tools: 2,
        },
      },
    ),
  },
  // Real runs of 1.0.102 against the mock. No tokens on stdout (usage_reported: none). The session
  // id is only in the last line (`result`); a run cut off before it has none. A tool call is one
  // tool.execution_start (then tool.execution_complete).
  copilot: {
    streams: table(
      { model: 'mock-model', done: true },
      {
        'a-bash-commit.jsonl': { sid: '0ebf0e67-02f7-46c2-84b7-4fc4e491cfa7', text: 'Done.', tools: 1 },
        'b-text.jsonl': { sid: '7bdacee9-bc69-4553-b52b-c691a69b0317', text: 'Hello from the mock.' },
        // Three 401s, then session.error (authentication) and exit 1.
        'c-401.jsonl': {
          sid: '2887e43b-1079-4bd3-a7b5-097b673403a3',
          err: /^Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)\./,
        },
        // One 429 (retry-after 120), then killed by `timeout` (rc 124) while waiting: no result line.
        // (Its stderr says "Error executing prompt: … after disposal has started": the kill, not read.)
        'd-429-retry-after-120.jsonl': { hit: true, done: false },
        'd-429.jsonl': {
          sid: '24a08327-c83a-4566-bdeb-c83864a832a5',
          err: 'Failed to get response from the AI model; retried 5 times (total retry wait time: 56.93 seconds) Last error: 429 Rate limit reached',
          hit: true,
        },
        'e-resume.jsonl': { sid: '0ebf0e67-02f7-46c2-84b7-4fc4e491cfa7', text: 'Second turn done.' },
        // One bash call, refused (code "denied"): it starts and completes like any other.
        'f-denied-deny-tool.jsonl': {
          sid: 'b80bd699-dc41-476d-871e-a06fc0dc47ed',
          text: 'Could not run it.',
          denials: 1,
          tools: 1,
        },
        'f-denied-no-allow.jsonl': {
          sid: '38dea906-2e3d-486e-8f47-f178dcd061fb',
          text: 'Could not run it.',
          denials: 1,
          tools: 1,
        },
        'g-allow-pattern.jsonl': {
          sid: '2ed8be9f-4f9c-4deb-872c-85dc41192f50',
          text: 'Committed.',
          tools: 1,
        },
        'h-model-flag.jsonl': {
          sid: '095e91e7-a155-456d-84df-57ab81139a79',
          model: 'flag-model',
          text: 'Model flag ok.',
        },
        'i-not-offline.jsonl': { sid: 'aa41d2c4-850d-40fa-a3b2-2089de792466', text: 'Online mode ok.' },
        'j-allow-csv.jsonl': { sid: '0d644a36-d069-46f6-9de6-19827c1df64a', text: 'Committed.', tools: 1 },
        'k-allow-csv-deny.jsonl': {
          sid: '4511c670-7b42-4536-a441-634ca60d430c',
          text: 'Push denied.',
          denials: 1,
          tools: 1,
        },
        'l-session-id-preset.jsonl': { sid: '3f9d2c1e-8a4b-4c6d-9e0f-123456789abc', text: 'Preset id.' },
      },
    ),
    // Copilot's own event logs (session-state/<id>/events.jsonl, the events log directory's file).
    notStdout: ['a-bash-commit.session-events.jsonl', 'l-session-id-preset.events-log-directory.jsonl'],
  },
});
