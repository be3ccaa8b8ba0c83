import { EMPTY, streamSuite, table } from '../../../../test/helpers/recorded-streams.js';

/*
 * Every stream kept in test/fixtures/harness-streams/<cli>/ for droid and kilo (opencode and qwen:
 * recorded-streams-c.test.ts; the others, and the guard that no provider's folder is left out:
 * recorded-streams-a.test.ts), read by its provider's reader. All are real runs against Jig's mock
 * model server; each expectation was worked out from the stream itself and the .rc and .stderr
 * beside it, not from what the reader printed. A "GAP" comment marks a figure the stream holds that
 * the reader leaves out.
 */
streamSuite('readers against the recorded streams (droid, kilo)', {
  // `droid exec -o stream-json` (0.225.2): init, messages, tool calls, then `completion` (usage) or
  // `error` events. The -json files are `-o json`: one result object and nothing else.
  droid: {
    streams: table(
      { model: 'custom:Mock-Model-0', done: true },
      {
        'a-bash-commit-airgap.jsonl': {
          sid: 'ac17e542-767e-46ae-9d3f-7cb9eb60fdc7',
          tok: [300, 60],
          text: 'Done.',
          tools: 2,
        },
        'a-bash-commit.jsonl': {
          sid: '0516a59d-a33f-497e-bae1-34dcb4a1bf7e',
          tok: [300, 60],
          text: 'Done.',
          tools: 2,
        },
        // The Execute call is refused for missing parameters: a tool error, not a permission stop.
        'a0-execute-without-risklevel.jsonl': {
          sid: 'd1fc9718-5dbb-4d31-bfa3-f333b5a4b6c7',
          tok: [200, 40],
          text: 'Done.',
          tools: 1,
        },
        // Droid-Shield fails the compound commit as a command error; the run goes on to its end.
        'a1-compound-commit-droid-shield.jsonl': {
          sid: '86ca4868-4e98-4e8a-823f-d47b2bdc6c52',
          tok: [200, 40],
          text: 'Done.',
          tools: 1,
        },
        'a2-compound-commit-shield-off.jsonl': {
          sid: '0ac6c290-07a8-484e-accc-1ca2864e6038',
          tok: [200, 40],
          text: 'Done.',
          tools: 1,
        },
        'a3-skip-permissions.jsonl': {
          sid: '7198f4bb-24f5-4ee1-b402-06e4dc74186d',
          tok: [200, 40],
          text: 'Done.',
          tools: 1,
        },
        'b-text-json.jsonl': {
          sid: 'bdf56825-eef9-4a7a-8409-29ef7abff533',
          model: null,
          tok: [1234, 56, 300],
          text: 'Hello from the mock.',
        },
        'b-text-provider-anthropic.jsonl': {
          sid: 'fd5d416c-26e7-4b9b-a788-eeac6d0ca4dd',
          tok: [100, 20],
          text: 'Hello via anthropic.',
        },
        'b-text-provider-openai.jsonl': {
          sid: 'f525a1b3-2504-4327-a87b-94a987f181b6',
          tok: [100, 20],
          text: 'Hello via openai.',
        },
        'b-text.jsonl': {
          sid: 'dcaa12c9-a0ea-4c60-b78e-b5352a37cbc7',
          tok: [1234, 56, 300],
          text: 'Hello from the mock.',
        },
        // -o json says only "Exec failed" (the 401 is not in it).
        'c-401-json.jsonl': { sid: '42236b95-b72f-4e10-acfc-0d84e76c0214', model: null, err: 'Exec failed' },
        // The API error (agent_loop), then the generic "Exec failed" (cli): the first is the cause.
        'c-401.jsonl': { sid: '04e5c1bd-724f-4cb0-be37-1a93a7ba0883', err: '401 Incorrect API key provided' },
        'd-429.jsonl': {
          sid: '91e11de8-5f91-4717-97d0-3ad5cfed0638',
          err: '429 Rate limit reached',
          hit: true,
        },
        // --fork of an unknown id: exit 1, nothing on stdout or stderr.
        'e-fork-unknown.jsonl': EMPTY,
        'e-resume-fork.jsonl': {
          sid: '2ad8ec4c-64e2-447a-99f7-139f6f59add5',
          tok: [100, 20],
          text: 'Second turn done.',
        },
        // -s fetches the session from Factory's service first (droid.yaml): exit 1, no output.
        'e-resume-s-airgap.jsonl': EMPTY,
        'e-resume-s.jsonl': EMPTY,
        // A call above --auto's level ends the run: an error event, no completion (so no usage).
        'f-denied-auto-low.jsonl': {
          sid: '07fc4d96-8e77-4aaf-924f-a897276cde46',
          err: 'Exec ended early: insufficient permission to proceed. Re-run with --auto medium or --auto high. For destructive commands, use --skip-permissions-unsafe.',
          denials: 1,
          tools: 1,
        },
        'f-denied-readonly.jsonl': {
          sid: '655e9b9b-7bad-4165-b9cd-741d9fb34ccc',
          err: 'Exec ended early: insufficient permission to proceed. Re-run with --auto medium or --auto high. For destructive commands, use --skip-permissions-unsafe.',
          denials: 1,
          tools: 1,
        },
        // The model called `bash`, which --remove-tools took away: "Not found", not a denial.
        'f-removed-tool.jsonl': {
          sid: '84ba297d-9061-4802-b1b8-e8e5472d4212',
          tok: [200, 40],
          text: 'No shell.',
          tools: 1,
        },
        'g-push-declared-medium.jsonl': {
          sid: '6ea01759-be18-4472-965a-56a8fc0a4d84',
          tok: [200, 40],
          text: 'Pushed?',
          tools: 1,
        },
        'g-push-denylist-settings.jsonl': {
          sid: '866409d9-432b-4840-80a1-cde7dd3bbb88',
          err: 'Exec ended early: insufficient permission to proceed. Re-run with --auto high. For destructive commands, use --skip-permissions-unsafe.',
          denials: 1,
          tools: 1,
        },
        // Invalid model: the message is on stderr only (below).
        'probe-unknown-model.jsonl': EMPTY,
      },
    ),
    // ~/.factory/sessions/<id>.jsonl: the session's history, which --fork copies.
    notStdout: ['a-bash-commit.session-file.jsonl'],
    // A launch droid refuses: exit 1, no JSON. (The model list follows the first line, twice.)
    stderr: {
      'probe-only-tools-unknown.stderr': { err: 'Unknown tool identifier(s)' },
      'probe-unknown-model.stderr': { err: 'Invalid model: no-such-model' },
    },
  },
  // `kilo run --format json` (7.7.7): no model name anywhere; tokens are each step_finish's.
  kilo: {
    streams: table(
      { done: true },
      {
        // Without --auto the bash call is auto-rejected, then an error event (a plain string) ends it.
        'a-tool-noauto.jsonl': {
          sid: 'ses_dcf46d799ffefdeAxkhQqj5LLJ',
          tok: [1200, 40, 300],
          text: 'I will run a command.',
          err: 'run ended with an auto-rejected permission; pass --auto for autonomous use',
          denials: 1,
          tools: 1,
        },
        'a-tool.jsonl': {
          sid: 'ses_dcf4c9fb7ffepFU6DkgnSeMafA',
          tok: [2700, 70, 300],
          text: 'Done. Committed f.txt.',
          tools: 1,
        },
        'b0-text-noflags.jsonl': {
          sid: 'ses_dcf4edd4cffeXuWVP2ijJT2i1u',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        'b1-text-flags.jsonl': {
          sid: 'ses_dcf4e50c7ffeeSGTFYvnH79dFf',
          tok: [900, 12],
          text: 'The answer is 42.',
        },
        // A 401's message is read from the response body (it names authentication_error).
        'c-401.jsonl': {
          sid: 'ses_dcf4bd4e2ffeJJYt4hDHm2sqU7',
          err: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
        // KILO_SESSION_RETRY_LIMIT=0 is ignored: still retrying when `timeout` killed it (rc 124).
        'd-429-retrylimit0.jsonl': EMPTY,
        // retry-after 30 and anthropic-ratelimit-unified-reset 1796113696 (the later rule wins).
        'd-429-retrylimit1.jsonl': {
          sid: 'ses_dcf492d71ffeUY6QSLReZ8ogdc',
          err: 'rate limit exceeded',
          resets: '2026-12-01T08:28:16.000Z',
        },
        'e-resume.jsonl': {
          sid: 'ses_dcf4c9fb7ffepFU6DkgnSeMafA',
          tok: [2000, 15],
          text: 'Resumed: f.txt is committed.',
        },
        'f-ask-rejected.jsonl': {
          sid: 'ses_dcf47a46dffeQvJNwLufX2duYh',
          tok: [100, 20],
          text: 'I will run a command.',
          err: 'run ended with an auto-rejected permission; pass --auto for autonomous use',
          denials: 1,
          tools: 1,
        },
        'f-deny-pattern.jsonl': {
          sid: 'ses_dcf474d5cffer4QFZpkDt489on',
          tok: [200, 40],
          text: 'Could not run the command.',
          denials: 1,
          tools: 1,
        },
        // "Session not found" on stderr only (below).
        'g-bad-session.jsonl': EMPTY,
        'j-pgid.jsonl': { sid: 'ses_dcf3ef2d9ffe542Ky040reZN7H', tok: [200, 40], text: 'ok', tools: 1 },
        'x-debug.jsonl': { sid: 'ses_dcf4d26f3ffeOChGM0tssT9CCL', tok: [900, 12], text: 'The answer is 42.' },
      },
    ),
    // Its other "Error: …" lines repeat the error events, and are not read.
    stderr: { 'g-bad-session.stderr': { err: 'Session not found' } },
  },
});
