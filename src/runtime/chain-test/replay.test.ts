import { describe, expect, it } from 'vitest';
import type { ChainTestReport } from '../../contract/chain-test.js';
import type { RecordedSession, Recording } from '../../contract/recording.js';
import { answerOf, divergencesOf, promptsOf, scriptFromRecording } from './replay.js';

const session = (over: Partial<RecordedSession>): RecordedSession => ({
  task: 'build.main.code',
  attempt: 1,
  kind: 'agent',
  status: 'done',
  exit_code: 0,
  harness: 'claude',
  model: null,
  cost_usd: 0.5,
  tokens: { input: 10, output: 2, cache_read: 0, cache_write: 0 },
  note: null,
  result: { status: 'done' },
  document: null,
  files: {},
  skipped_files: [],
  stream: '',
  started_at: '2026-12-02T10:00:00.000Z',
  exited_at: '2026-12-02T10:01:00.000Z',
  ...over,
});

const chain = (prompt: string) => ({
  id: 'shipping',
  nodes: [
    {
      id: 'build',
      kind: 'exec',
      path: 'build',
      steps: [
        {
          id: 'main',
          path: 'build.main',
          tasks: [{ id: 'code', kind: 'agent', path: 'build.main.code', prompt }],
        },
      ],
    },
  ],
});

const recording = (sessions: RecordedSession[], path: ChainTestReport['path']): Recording => ({
  format: 'jig-recording',
  version: 1,
  recorded_at: '2026-12-02T10:02:00.000Z',
  item: { id: 'abc', title: 'T', chain: 'shipping', repo: '/r', status: 'completed', stop: null },
  chain: chain('Add the feature.') as unknown as Recording['chain'],
  path,
  sessions,
  gates: [{ gate: 'ship', decision: 'approve', by: 'human' }],
  spent_usd: 0.5,
});

const report = (over: Partial<ChainTestReport>): ChainTestReport => ({
  chain: 'shipping',
  ok: true,
  status: 'completed',
  stop: null,
  ended: 'completed',
  path: [],
  sessions: [],
  spent_usd: 0,
  spent_tokens: 0,
  expectations: [],
  divergences: [],
  ...over,
});

describe('a replay', () => {
  it('answers a recorded session as it ended: its result, spend, document and files; a failed CLI fails again', () => {
    expect(
      answerOf(
        session({
          result: {
            status: 'done_with_concerns',
            concerns: 'c',
            findings: [{ severity: 'minor', message: 'm' }, { bad: 1 }],
          },
          document: '# Doc',
          files: { 'a.txt': 'x', 'b.txt': null },
        }),
      ),
    ).toEqual({
      status: 'done_with_concerns',
      concerns: 'c',
      findings: [{ severity: 'minor', message: 'm' }],
      document: '# Doc',
      files: { 'a.txt': 'x', 'b.txt': null },
      commit_message: 'build.main.code: replayed change',
      cost_usd: 0.5,
      tokens: { input: 10, output: 2, cache_read: 0, cache_write: 0 },
    });
    expect(answerOf(session({ status: 'failed', result: null })).fails).toBe('error');
    expect(answerOf(session({ status: 'rate_limited', result: null })).fails).toBe('rate_limit');
  });

  it('makes a strict script of agent sessions and gate decisions; commands are left to run', () => {
    const s = scriptFromRecording(
      recording(
        [
          session({}),
          session({ task: 'build.tests.unit', kind: 'subprocess' }),
          session({ attempt: 2, cost_usd: 1 }),
        ],
        [],
      ),
    );
    expect({
      strict: s.strict,
      tasks: Object.keys(s.tasks),
      gates: s.gates,
      n: (s.tasks['build.main.code'] as unknown[]).length,
    }).toEqual({
      strict: true,
      tasks: ['build.main.code'],
      gates: { ship: ['approve'] },
      n: 2,
    });
  });

  it('finds every agent prompt of a frozen chain', () => {
    expect([...promptsOf(chain('P'))]).toEqual([['build.main.code', 'P']]);
  });

  it('reports a changed prompt, an unanswered session, an unused answer and the first step the route differs', () => {
    const rec = recording(
      [session({}), session({ task: 'build.main.check', files: null })],
      [
        { type: 'node_started', node: 'build', detail: 'started' },
        { type: 'work_item_needs_human', node: 'build', detail: 'stopped (budget): item x used 2 of 1' },
      ],
    );
    const ran = report({
      sessions: [
        { task: 'build.main.code', attempt: 1, status: 'done', cost_usd: 0, tokens: 0, note: null },
        {
          task: 'build.main.code',
          attempt: 2,
          status: 'failed',
          cost_usd: 0,
          tokens: 0,
          note: 'the script has no answer for build.main.code (session 2)',
        },
      ],
      path: [
        { type: 'node_started', node: 'build', detail: 'started' },
        { type: 'work_item_needs_human', node: 'build', detail: 'stopped (budget): item y used 3 of 1' },
        { type: 'work_item_completed', node: null, detail: 'item completed' },
      ],
    });
    expect(divergencesOf(rec, ran, chain('Add the feature, well.'))).toEqual([
      {
        kind: 'no_answer',
        task: 'build.main.code',
        detail:
          "build.main.code: the recording answers 1 session(s); the replay's session(s) 2 had no answer",
      },
      {
        kind: 'prompt_changed',
        task: 'build.main.code',
        detail: 'build.main.code: its prompt is not the one recorded',
      },
      {
        kind: 'unused',
        task: 'build.main.check',
        detail: 'build.main.check: the recording answers 1 session(s), the replay asked for 0',
      },
      {
        kind: 'not_captured',
        task: 'build.main.check',
        detail: 'session 1 of build.main.check: what it changed was not recorded; the replay changes nothing',
      },
      // A stop's reason names ids of its own run: only its kind is compared.
      {
        kind: 'route',
        task: null,
        detail: 'step 3: the recording went "(its end)", the replay "- item completed"',
      },
    ]);
  });
});
