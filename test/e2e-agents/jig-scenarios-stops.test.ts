import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessions } from '../helpers/agents.js';
import { events, fileItem, isAlive } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { git } from '../helpers/git.js';
import { privateHome, resultCmd, sessionLog, streamEvents } from './jig-env.js';
import type { Turn } from './mock-model-server.js';
import {
  closeScenarios,
  COMMIT,
  explain,
  homes,
  missing,
  ONE_AGENT,
  session,
  setup,
  TEST_TIMEOUT,
  title,
  tokensOf,
  settle,
} from './jig-scenarios-setup.js';

// Scenarios 4-6 of issue 9 (see jig-scenarios-setup.ts): the ways a real CLI's item stops.

afterAll(closeScenarios);

// 4. A 429 with a reset time: fall back to the next candidate; all limited parks the item.
describe.skipIf(missing('claude', 'codex') !== '')(
  title('rate limits on real Claude Code and Codex', 'claude', 'codex'),
  () => {
    it(
      'a 429 falls back from Claude to Codex; with every candidate limited the item parks',
      async () => {
        const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Add hello.txt and commit it.
        fallback:
          - harness: codex
            model: gpt-5-codex
`;
        const { jig, repo, mock } = await setup(
          [
            { status: 429, reset_after_s: 600, once: true }, // Claude
            ...session(`${COMMIT} && ${resultCmd({ status: 'done' })}`), // Codex
            { status: 429, reset_after_s: 600 }, // every later call
          ],
          { fb: chain },
        );
        const item = await fileItem(jig, repo, 'fb');
        const done = await settle(jig, item.id, mock);
        expect(done.status, await explain(jig, item.id, mock)).toBe('completed');
        const ss = await sessions(jig, item.id);
        expect(ss.map((s) => [s.harness, s.status])).toEqual([
          ['claude', 'rate_limited'],
          ['codex', 'done'],
        ]);
        expect(ss[0].readout).toMatchObject({ is_error: true, rate_limit: { hit: true } });
        expect(ss[1].cost_source).toBe('estimated');
        expect(mock.main().map((q) => [q.api, q.status])).toEqual([
          ['anthropic', 429],
          ['openai', 200],
          ['openai', 200],
        ]);
        const evs = await events(jig, item.id);
        const hit = evs.find((e) => e.type === 'rate_limit_hit');
        expect(hit?.payload).toMatchObject({ harness: 'claude', task: 'build.main.implement' });
        // Claude 2.1.197 prints no reset time for an API-key 429 (no rate_limit_event, and the
        // result text names none): Jig keeps it out for its default minute, not the header's 10.
        expect(Date.parse(hit?.payload.resets_at)).toBeGreaterThan(Date.parse(hit?.at));
        expect(evs.find((e) => e.type === 'launch_fallback')?.payload).toMatchObject({ from: 0, to: 1 });
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');

        // A second item: Claude is known limited (skipped without a launch), Codex now gets 429s.
        const second = await fileItem(jig, repo, 'fb');
        const parked = await settle(jig, second.id, mock);
        expect(parked.status, await explain(jig, second.id, mock)).toBe('stopped');
        expect(parked.stop.kind).toBe('rate_limit');
        expect(parked.stop.reason).toMatch(/every launch of build\.main\.implement is rate limited/);
        const ss2 = await sessions(jig, second.id);
        expect(ss2.map((s) => [s.harness, s.status])).toEqual([['codex', 'rate_limited']]);
        // The stop is written first, the parking after it: wait for the parking's event.
        const evs2 = await eventually(
          async () => {
            const all = await events(jig, second.id);
            return all.some((e) => e.type === 'work_item_parked') ? all : undefined;
          },
          { what: `${second.id} to be parked` },
        );
        const types = evs2.map((e) => e.type);
        expect(types).toEqual(
          expect.arrayContaining([
            'launch_fallback',
            'rate_limit_hit',
            'launch_fallback_exhausted',
            'work_item_parked',
          ]),
        );
        expect(evs2.find((e) => e.type === 'rate_limit_hit')?.payload).toMatchObject({ harness: 'codex' });
        expect(evs2.find((e) => e.type === 'launch_fallback_exhausted')?.payload).toMatchObject({
          task: 'build.main.implement',
          candidates: 2,
          resets_at: expect.any(String),
        });
        expect(
          mock
            .main()
            .slice(3)
            .map((q) => [q.api, q.status]),
        ).toEqual([['openai', 429]]);
      },
      TEST_TIMEOUT,
    );
  },
);

// 5. A 401: an infra stop, no fix cycle; Claude's is_error with subtype success read as a failure.
describe.skipIf(missing('claude') !== '')(title('a refused key on real Claude Code', 'claude'), () => {
  it(
    'stops the item as infra (not logged in / key refused) without spending a fix cycle',
    async () => {
      const { jig, repo, home, mock } = await setup(
        [{ status: 401 }],
        {
          verify: `
nodes:
  - id: verification
    extends: verification
`,
        },
        { testCommand: 'true' },
      );
      const item = await fileItem(jig, repo, 'verify');
      const done = await settle(jig, item.id, mock);
      const why = await explain(jig, item.id, mock);
      expect(done.status, why).toBe('stopped');
      expect(done.stop.kind, why).toBe('infra');
      expect(done.stop.reason).toMatch(/not logged in or its API key was refused/);
      const ss = await sessions(jig, item.id);
      expect(ss.map((s) => [s.task_path, s.status])).toEqual([
        ['verification.tests.verify', 'done'],
        ['verification.review.code_review', 'infra_error'],
      ]);
      const s = ss[1];
      expect(s.readout).toMatchObject({ is_error: true });
      expect(s.note).toMatch(/not logged in or its API key was refused/);
      // The CLI's own words: subtype success, is_error true, exit 1.
      const result = streamEvents(sessionLog(home, s.id)).find((e) => e.type === 'result');
      expect(result).toMatchObject({ subtype: 'success', is_error: true });
      expect(s.exit_code).toBe(1);
      // No repair, no judge: the fix loop never started.
      expect(ss.some((x) => /repair|judge/.test(x.task_path))).toBe(false);
      expect(mock.main()).toHaveLength(1);
    },
    TEST_TIMEOUT,
  );
});

// 6. A budget cap crossed mid-stream ends the CLI's process group at once.
type Cap = { key: 'token_budget' | 'budget_usd'; limit: number };
const CAPS: Cap[] = [
  { key: 'token_budget', limit: 500 },
  // 4000 input tokens at the table's sonnet price ($3/M) cross it on the first model call.
  { key: 'budget_usd', limit: 0.005 },
];

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The default capped session: its first answer crosses the cap and asks its Bash tool to sleep 30 s. */
const crossFirst = (pidFile: string): Turn[] => [
  { usage: { input: 4000, output: 200 } },
  { bash: `echo $$ > '${pidFile}'; exec sleep 30` },
  { say: 'never reached' },
];

/**
 * One capped Claude session (`script` given the file the tool writes its pid to). Returns once the
 * item has stopped and the CLI's process group is reaped (bounded wait), with the pid of the command
 * the tool was running.
 */
async function cappedRun(cap: Cap, script: (pidFile: string) => Turn[] = crossFirst) {
  const cliHome = privateHome('pid');
  homes.push(cliHome);
  const pidFile = join(cliHome, 'tool.pid');
  const { jig, repo, mock } = await setup(script(pidFile), {
    capped: ONE_AGENT('claude', `        policy:\n          ${cap.key}: ${cap.limit}\n`),
  });
  const item = await fileItem(jig, repo, 'capped');
  const done = await settle(jig, item.id, mock);
  const why = await explain(jig, item.id, mock);
  const started = (await events(jig, item.id)).find((e) => e.type === 'worker_session_started');
  const pid = started?.payload.pid as number;
  // Bounded and not asserted here: the tests say what they require of the process group.
  await eventually(() => !isAlive(pid) && !groupAlive(pid), {
    what: "the CLI's process group to end",
  }).catch(() => undefined);
  const toolPid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : null;
  return { jig, item, done, why, mock, pid, toolPid };
}

/** Ends what a test's CLI left behind (a process this test started). */
function reap(pid: number | null): void {
  if (pid !== null && isAlive(pid)) process.kill(pid, 'SIGKILL');
}

describe.skipIf(missing('claude') !== '')(title('a budget cap on real Claude Code', 'claude'), () => {
  for (const cap of CAPS) {
    it(
      `a ${cap.key} crossed mid-stream ends the CLI's process group at once; the item stops on its budget`,
      async () => {
        const r = await cappedRun(cap);
        try {
          expect(r.done.status, r.why).toBe('stopped');
          expect(r.done.stop.kind, r.why).toBe('budget');
          expect(r.done.stop.reason).toContain(`${cap.key} of task build.main.implement`);
          const [s] = await sessions(r.jig, r.item.id);
          expect(s.status, r.why).toBe('budget_exceeded');
          // What the CLI had printed when it was ended: the call's input, and its output so far
          // (Claude prints a message's usage as of its start; the final count never reached the log).
          expect(s.tokens.input).toBe(4000);
          expect(s.tokens.output).toBeLessThanOrEqual(200);
          expect(r.done.spent_tokens).toBe(tokensOf(s));
          if (cap.key === 'budget_usd') {
            // Claude reports no cost before its result event: the table priced the tokens so far.
            expect(s.cost_source).toBe('estimated');
            expect(s.cost_usd).toBeGreaterThan(cap.limit);
            expect(r.done.spent_usd).toBeCloseTo(s.cost_usd, 9);
          }
          // Ended mid-session: the CLI never got to send its tool's result (30 s later). A loaded
          // machine can see the CLI repeat its first call before it is ended; that carries no result.
          expect(r.mock.main().length).toBeGreaterThanOrEqual(1);
          expect(r.mock.main().filter((q) => JSON.stringify(q.body).includes('tool_result'))).toEqual([]);
          expect(r.pid).toBeGreaterThan(1);
          expect(isAlive(r.pid)).toBe(false);
          expect(groupAlive(r.pid)).toBe(false);
        } finally {
          reap(r.toolPid);
        }
      },
      TEST_TIMEOUT,
    );
  }

  it(
    'the command the CLI’s Bash tool was running when the cap ended it goes too',
    async () => {
      // The first answer starts a command in the background (the CLI answers at once); the
      // second, which crosses the cap, is held by the mock until that command has written its pid,
      // so the cap is crossed while it runs, by construction rather than by timing.
      const r = await cappedRun(CAPS[0]!, (pidFile) => [
        { usage: { input: 100, output: 10 } },
        { bash: `echo $$ > '${pidFile}'; exec sleep 30`, background: true },
        { until_file: pidFile },
        { usage: { input: 4000, output: 200 } },
        { bash: 'sleep 30' },
        { say: 'never reached' },
      ]);
      try {
        expect(r.done.stop?.kind, r.why).toBe('budget');
        expect(r.toolPid, r.why).not.toBeNull();
        expect(r.done.stop?.reason).toContain('token_budget of task build.main.implement');
        // Claude Code starts its Bash commands in a session of their own (setsid), outside the
        // process group Jig ends: they outlive the CLI (engine bug, see docs/harnesses.md).
        await eventually(
          () => {
            const ps = spawnSync('ps', ['-o', 'pid,ppid,pgid,sid,cmd', '-p', String(r.toolPid)], {
              encoding: 'utf8',
            }).stdout;
            expect(isAlive(r.toolPid!), `tool process left running:\n${ps}`).toBe(false);
            return true;
          },
          { what: 'the tool process to end' },
        );
      } finally {
        reap(r.toolPid);
      }
    },
    TEST_TIMEOUT,
  );
});
