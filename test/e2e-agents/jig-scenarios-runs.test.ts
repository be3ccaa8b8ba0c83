import { afterAll, describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/core/harness/prices.js';
import { CONTRACT_TEXT } from '../../src/core/steering/contract-text.js';
import { HarnessCatalog } from '../../src/runtime/harness/catalog.js';
import { sessions } from '../helpers/agents.js';
import { events, fileItem, post } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { git } from '../helpers/git.js';
import { http } from '../helpers/server.js';
import type { CliId } from './clis.js';
import { resultCmd, texts } from './jig-env.js';
import {
  closeScenarios,
  COMMIT,
  ended,
  expectSpend,
  explain,
  missing,
  ONE_AGENT,
  session,
  setup,
  TEST_TIMEOUT,
  title,
  settle,
  TRIES,
} from './jig-scenarios-setup.js';

// Scenarios 1-3 of issue 9 (see jig-scenarios-setup.ts): items the real CLIs carry to completion.

afterAll(closeScenarios);

const prices = new HarnessCatalog('/nonexistent-jig-config').prices();
const CONTRACT_HEAD = CONTRACT_TEXT.split('\n')[0]!;

// 1. The seeded default chain on Claude Code.
describe.skipIf(missing('claude') !== '')(
  title('the seeded default chain on real Claude Code', 'claude'),
  () => {
    it(
      'spec, approved; plan, approved; a real edit and commit; verification passes; brief; completed with the mock’s usage and the CLI’s dollars',
      async () => {
        const SPEC = '# Spec\n\nAdd hello.txt.\n';
        const PLAN = '# Plan\n\n1. Write hello.txt and commit it.\n';
        const BRIEF = '# Brief\n\nhello.txt added.\n';
        const { jig, repo, mock } = await setup(
          [
            ...session(resultCmd({ status: 'done', artifact_ref: '.jig/docs/spec.md' }, SPEC)),
            ...session(resultCmd({ status: 'done', artifact_ref: '.jig/docs/plan.md' }, PLAN), {
              input: 2000,
              output: 400,
            }),
            ...session(`${COMMIT} && ${resultCmd({ status: 'done' })}`, { input: 8000, output: 1500 }),
            ...session(resultCmd({ status: 'done', findings: [] }), { input: 2500, output: 300 }),
            ...session(resultCmd({ status: 'done', artifact_ref: '.jig/docs/work_brief.md' }, BRIEF)),
          ],
          {},
          { testCommand: 'test -f hello.txt' },
        );
        const item = await fileItem(jig, repo, 'default');
        const why = () => explain(jig, item.id, mock);

        let at = await settle(jig, item.id, mock);
        expect(at.current_node, await why()).toBe('spec_approval');
        expect(at.stop.kind).toBe('gate');
        expect((await http(`${jig.url}/api/work-items/${item.id}/artifact`)).json).toMatchObject({
          kind: 'spec',
          text: SPEC,
        });
        expect((await post(jig, `/api/work-items/${item.id}/gates/spec_approval/approve`)).status).toBe(200);

        at = await settle(jig, item.id, mock, (i) => ended(i) && i.current_node !== 'spec_approval');
        expect(at.current_node, await why()).toBe('plan_approval');
        expect((await http(`${jig.url}/api/work-items/${item.id}/artifact`)).json.text).toBe(PLAN);
        expect((await post(jig, `/api/work-items/${item.id}/gates/plan_approval/approve`)).status).toBe(200);

        at = await settle(jig, item.id, mock, (i) => ended(i) && i.current_node !== 'plan_approval');
        expect(at.current_node, await why()).toBe('local_review');
        expect((await http(`${jig.url}/api/work-items/${item.id}/artifact`)).json).toMatchObject({
          kind: 'work_brief',
          text: BRIEF,
        });
        expect((await post(jig, `/api/work-items/${item.id}/gates/local_review/approve`)).status).toBe(200);
        const done = await settle(jig, item.id, mock);
        expect(done.status, await why()).toBe('completed');

        const ss = await sessions(jig, item.id);
        expect(ss.map((s) => [s.task_path, s.status])).toEqual([
          ['spec.main.author', 'done'],
          ['plan.main.author', 'done'],
          ['implementation.main.implement', 'done'],
          ['verification.tests.verify', 'done'],
          ['verification.review.code_review', 'done'],
          ['work_brief.main.author', 'done'],
        ]);
        const agents = ss.filter((s) => s.kind === 'agent');
        // The commit was made by Claude's own Bash tool, in the item's worktree, on its branch.
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
        expect(git(repo, 'show', `${done.branch}:hello.txt`)).toBe('hello');
        // Every session a real Claude session of its own, on the mock's usage, priced by the CLI.
        expect(new Set(agents.map((s) => s.cli_session_id)).size).toBe(5);
        for (const s of agents) {
          expect(s).toMatchObject({ harness: 'claude', provider: 'claude', cost_source: 'reported' });
          expect(s.cli_session_id).toMatch(/^[0-9a-f-]{36}$/);
          // The CLI's own figure is the mock's tokens at the table's price for the launch model
          // (`sonnet`; Claude Code names it claude-sonnet-5, which the table does not list).
          expect(s.model).toMatch(/^claude-sonnet/);
          expect(estimateCost(prices, 'claude', 'sonnet', s.tokens)?.usd).toBeCloseTo(s.cost_usd, 9);
        }
        expectSpend(done, agents, mock);
        // Two model calls per session (the tool call, then the answer), each with Jig's contract.
        const main = mock.main();
        expect(main.length).toBe(10);
        for (const q of main) expect(texts((q.body as { system?: unknown }).system)).toContain(CONTRACT_HEAD);
        const implement = main[4]!.body as { system?: unknown };
        expect(texts(implement.system)).toContain('JIG_RESULT_PATH');
      },
      TEST_TIMEOUT * 2,
    );
  },
);

// 2. The implementation task on Codex and on Gemini: tokens recorded, dollars estimated.
const IMPLEMENT = (harness: CliId): string => `
nodes:
  - id: implementation
    kind: exec
    tasks:
      - id: implement
        extends: implementer
        harness: ${harness}
`;
const MODEL: Record<'codex' | 'gemini', string> = { codex: 'gpt-5-codex', gemini: 'gemini-2.5-pro' };
describe('the library implementation task on real Codex and Gemini', () => {
  for (const id of ['codex', 'gemini'] as const) {
    it.skipIf(missing(id) !== '')(
      title(
        `${id}: commits through its shell tool; tokens from the stream, dollars from the price table`,
        id,
      ),
      async () => {
        const { jig, repo, mock } = await setup(
          [...session(`${COMMIT} && ${resultCmd({ status: 'done' })}`)],
          { impl: IMPLEMENT(id) },
          { testCommand: 'test -f hello.txt' },
        );
        const item = await fileItem(jig, repo, 'impl');
        const done = await settle(jig, item.id, mock);
        expect(done.status, await explain(jig, item.id, mock)).toBe('completed');
        const ss = await sessions(jig, item.id);
        expect(ss).toHaveLength(1);
        const [s] = ss;
        expect(s).toMatchObject({
          status: 'done',
          harness: id,
          provider: id,
          model: MODEL[id],
          cost_source: 'estimated',
          tokens: { input: mock.reported.input, output: mock.reported.output },
        });
        expect(s.cli_session_id).toEqual(expect.any(String));
        expect(s.cli_session_id.length).toBeGreaterThan(0);
        const estimate = estimateCost(prices, id, MODEL[id], s.tokens);
        expect(estimate?.usd).toBeGreaterThan(0);
        expect(s.cost_usd).toBeCloseTo(estimate!.usd, 9);
        expectSpend(done, ss, mock);
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
        expect(mock.main().every((q) => q.model === MODEL[id])).toBe(true);
      },
      TEST_TIMEOUT,
    );
  }
});

// 3. A steer after a pause resumes the same Claude session.
describe.skipIf(missing('claude') !== '')(
  title('steering a paused real Claude Code session', 'claude'),
  () => {
    it(
      'resumes the same session id with --resume; the mock sees the steer as the new prompt',
      async () => {
        const STEER = 'Use printf, not echo, and commit with the message agent: add hello.';
        const { jig, repo, mock } = await setup(
          [
            // The first answer never comes before the pause.
            { slow_ms: 600_000 },
            { say: 'too late' },
            ...session(`${COMMIT} && ${resultCmd({ status: 'done' })}`),
          ],
          { one: ONE_AGENT('claude') },
        );
        const item = await fileItem(jig, repo, 'one');
        const why = () => explain(jig, item.id, mock);
        // Wait for the CLI to be in its first model call (its session id is in the stream by then).
        const first = await eventually(
          async () => {
            const [s] = await sessions(jig, item.id);
            return s?.cli_session_id && mock.main().length > 0 ? s : undefined;
          },
          { what: 'the CLI in its first model call', tries: TRIES },
        ).catch(async (err: Error) => {
          throw new Error(`${err.message}\n${await why()}`, { cause: err });
        });
        expect(first.cli_session_id, await why()).toMatch(/^[0-9a-f-]{36}$/);
        expect(mock.main()).toHaveLength(1);
        expect((await post(jig, `/api/work-items/${item.id}/pause`, {})).status).toBe(200);
        await settle(jig, item.id, mock, (i) => i.status === 'paused');
        const steer = await post(jig, `/api/work-items/${item.id}/steer`, { note: STEER });
        expect(steer.status, steer.text).toBe(200);
        expect((await post(jig, `/api/work-items/${item.id}/resume`, {})).status).toBe(200);
        const done = await settle(jig, item.id, mock);
        expect(done.status, await why()).toBe('completed');

        const ss = await sessions(jig, item.id);
        expect(ss.map((s) => s.status)).toEqual(['paused', 'done']);
        expect(ss[1].cli_session_id).toBe(first.cli_session_id);
        const started = (await events(jig, item.id)).filter((e) => e.type === 'worker_session_started');
        expect(started).toHaveLength(2);
        const argv = started[1].payload.argv as string[];
        expect(argv[argv.indexOf('--resume') + 1]).toBe(first.cli_session_id);
        expect(argv[argv.indexOf('-p') + 1]).toBe(STEER);
        // The resumed CLI's first call: the steer is the newest user message, after the original prompt.
        const resumed = mock.main()[1]!.body as { messages: { role: string; content: unknown }[] };
        const users = resumed.messages.filter((m) => m.role === 'user').map((m) => texts(m.content));
        expect(users.at(-1)).toContain(STEER);
        expect(users.slice(0, -1).join('\n')).toContain('Add hello.txt and commit it.');
        expect(texts((mock.main()[0]!.body as { messages: unknown }).messages)).not.toContain(STEER);
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
        // Delivered once.
        expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.steer ?? null).toBeNull();
      },
      TEST_TIMEOUT,
    );
  },
);
