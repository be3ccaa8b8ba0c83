import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { ProviderMock } from '../../src/contract/harness/provider-mock.js';
import { estimateCost } from '../../src/core/harness/prices.js';
import { HarnessCatalog } from '../../src/runtime/harness/catalog.js';
import { mockSetup } from '../../src/runtime/harness/harness-test.js';
import { agentSetup, harnessesYaml, sessions } from '../helpers/agents.js';
import { events, fileItem, post } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { git, gitEnv } from '../helpers/git.js';
import { cleanupAll, type JigProcess } from '../helpers/server.js';
import { cli, type CliId } from './clis.js';
import { privateHome, removeHome, resultCmd, texts } from './jig-env.js';
import { startMockModelServer, type MockModelServer, type Turn } from './mock-model-server.js';
import { COMMIT, explain, ONE_AGENT, session, TEST_TIMEOUT, settle, TRIES } from './jig-scenarios-setup.js';

/*
 * The five CLIs added as provider files (Qwen Code, Copilot CLI, OpenCode, Kilo, Droid), each
 * carried through Jig items as Claude Code, Codex and Gemini are: an edit and a commit, a
 * permission denial, a refused key, a cap crossed mid-stream and a resume after a steer. Each
 * CLI is pointed at the mock model by its provider's own `mock:` block (the variables and config
 * files `jig admin harnesses test` uses), so the block is what these tests check too. One test
 * file per CLI (jig-scenarios-<id>.test.ts), so the five run side by side.
 */

export type NewCli = Extract<CliId, 'qwen' | 'copilot' | 'opencode' | 'kilo' | 'droid'>;

const catalog = new HarnessCatalog('/nonexistent-jig-config');
const providers = catalog.providers().providers;
const prices = catalog.prices();

/**
 * The model each runs: a priced one where the CLI lets its config name it, so the dollar figure is
 * checked too. The mock answers whatever model is asked for.
 */
const MODEL: Record<NewCli, string> = {
  qwen: 'qwen3-coder-plus',
  copilot: 'claude-sonnet-4.5',
  opencode: 'mock/claude-sonnet-4-5',
  kilo: 'mock/claude-sonnet-4-5',
  droid: 'claude-sonnet-4-5',
};

/** What one file's tests started, ended after its last test. */
interface Started {
  mocks: MockModelServer[];
  homes: string[];
}

/** The provider's mock block with its model renamed to the test's (config files included). */
function mockFor(id: NewCli): ProviderMock {
  const m = providers[id]?.mock;
  if (!m) throw new Error(`provider ${id} has no mock block`);
  const bare = MODEL[id].replace(/^mock\//, '');
  const rename = (t: string) => t.replaceAll('mock-model', bare);
  // Droid-Shield refuses a compound `git add && git commit` unless it names the repository by a
  // literal absolute path (`git -C /path`), which a scripted model cannot know before the item is
  // filed; a real model follows the refusal's advice. The tests switch the shield off.
  const shield = (t: string) =>
    id === 'droid' ? t.replace('{"customModels"', '{"enableDroidShield": false, "customModels"') : t;
  return { ...m, files: m.files.map((f) => ({ ...f, text: shield(rename(f.text)) })) };
}

async function setupIn(
  started: Started,
  id: NewCli,
  script: Turn[],
  chain: string,
): Promise<{ jig: JigProcess; repo: string; home: string; mock: MockModelServer }> {
  const mock = await startMockModelServer(script);
  started.mocks.push(mock);
  const cliHome = privateHome(id);
  started.homes.push(cliHome);
  mkdirSync(join(cliHome, 'tmp'));
  const block = mockFor(id);
  const env = mockSetup(block, { mock_url: mock.url, home: cliHome }).env;
  const doc = parseDocument(harnessesYaml());
  doc.setIn(['harnesses', id, 'executable'], cli(id).bin);
  doc.setIn(['harnesses', id, 'defaults', 'model'], MODEL[id]);
  if (block.permission_mode)
    doc.setIn(['harnesses', id, 'defaults', 'permission_mode'], block.permission_mode);
  // Copilot tells no usage: each launch counts this much, so its dollar figure and caps are checked.
  if (id === 'copilot') doc.setIn(['harnesses', id, 'launch_usd'], LAUNCH_USD);
  const { jig, repo, home } = await agentSetup(
    { one: chain },
    {
      harnesses: doc.toString(),
      env: { HOME: cliHome, TMPDIR: join(cliHome, 'tmp'), ...gitEnv, ...env },
    },
  );
  return { jig, repo, home, mock };
}

const DONE = resultCmd({ status: 'done' });
const LAUNCH_USD = 0.25;

/**
 * The five scenarios of one CLI. Called from its own test file: the hook that ends what the tests
 * started is registered there (a module-level hook would run in the first file of a worker only).
 */
export function moreScenarios(id: NewCli): void {
  const started: Started = { mocks: [], homes: [] };
  afterAll(async () => {
    await cleanupAll();
    for (const m of started.mocks) await m.close();
    for (const h of started.homes) await removeHome(h);
  });
  const setup = (script: Turn[], chain: string) => setupIn(started, id, script, chain);
  const skip = cli(id).skip;
  describe.skipIf(skip !== undefined)(`${id} through Jig items${skip ? ` — skipped: ${skip}` : ''}`, () => {
    it(
      'commits through its shell tool; tokens from the stream and a dollar figure, or marked unpriced',
      async () => {
        const { jig, repo, mock } = await setup(session(`${COMMIT} && ${DONE}`), ONE_AGENT(id));
        const item = await fileItem(jig, repo, 'one');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('completed');
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
        const [s, ...more] = await sessions(jig, item.id);
        expect(more).toEqual([]);
        expect(s).toMatchObject({ status: 'done', harness: id, provider: id });
        expect(s.cli_session_id, why).toEqual(expect.any(String));
        if (id === 'copilot') {
          // Copilot 1.0.102 prints no usage on stdout: the harness's launch_usd, never a silent $0.
          expect(s.cost_source, why).toBe('per_launch');
          expect(s.cost_usd).toBe(LAUNCH_USD);
          expect(done.spent_usd).toBe(LAUNCH_USD);
        } else {
          expect(s.tokens, why).toMatchObject({ input: mock.reported.input, output: mock.reported.output });
          expect(s.cost_source, why).toBe('estimated');
          const estimate = estimateCost(prices, id, MODEL[id], s.tokens);
          expect(estimate?.usd).toBeGreaterThan(0);
          expect(s.cost_usd).toBeCloseTo(estimate!.usd, 9);
          expect(done.spent_usd).toBeCloseTo(s.cost_usd, 9);
        }
      },
      TEST_TIMEOUT,
    );

    it(
      'a refused key stops the item without a fix cycle; the reader reports the error',
      async () => {
        const { jig, repo, mock } = await setup([{ status: 401 }], ONE_AGENT(id));
        const item = await fileItem(jig, repo, 'one');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('stopped');
        const ss = await sessions(jig, item.id);
        expect(ss, why).toHaveLength(1);
        expect(ss[0].readout.is_error, why).toBe(true);
        expect(mock.main().length).toBeGreaterThanOrEqual(1);
        expect(mock.main().every((q) => q.status === 401)).toBe(true);
      },
      TEST_TIMEOUT,
    );

    it(
      'a token cap crossed mid-stream ends the CLI; the item stops on its budget',
      async () => {
        // Copilot tells no tokens: its launch_usd crosses a dollar cap instead.
        const cap = id === 'copilot' ? 'budget_usd: 0.1' : 'token_budget: 500';
        // The CLI prints the tokens with the answer that asks for a command (Qwen) or once that
        // command has run (OpenCode, Kilo), and is ended while it waits for the next answer, held
        // here; Droid prints them only at its end, so the cap stops the item after it. (Qwen
        // refuses a `sleep` as a command, so the wait is the model's.)
        const usage: Turn = { usage: { input: 4000, output: 200 } };
        const script: Turn[] =
          id === 'droid' ? [usage, { bash: 'true' }] : [usage, { bash: 'true' }, { slow_ms: 600_000 }];
        const { jig, repo, mock } = await setup(
          [...script, { say: 'never reached' }],
          ONE_AGENT(id, `        policy:\n          ${cap}\n`),
        );
        const item = await fileItem(jig, repo, 'one');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('stopped');
        expect(done.stop.kind, why).toBe('budget');
        const [s] = await sessions(jig, item.id);
        expect(s.status, why).toBe('budget_exceeded');
        // Ended on the figure as it was read, not on a total read after it ended (but Droid's).
        if (id === 'droid') expect(s.note, why).toMatch(/reported at the session's end/);
        else expect(s.note, why).not.toMatch(/session's end/);
        if (id === 'copilot') expect(s.cost_usd, why).toBe(LAUNCH_USD);
        else expect(s.tokens.input + s.tokens.output, why).toBeGreaterThan(500);
      },
      TEST_TIMEOUT,
    );

    it(
      'a steer after a pause resumes the same CLI session (Copilot: a new one with the brief)',
      async () => {
        const STEER = 'Use printf and commit with the message agent: add hello.';
        // OpenCode and Kilo print nothing (not even their session id) before the model's first answer
        // ends: the pause comes while the tool that answer asked for runs.
        const held: Turn[] =
          id === 'opencode' || id === 'kilo'
            ? [{ bash: 'sleep 600' }]
            : [{ slow_ms: 600_000 }, { say: 'too late' }];
        const { jig, repo, mock } = await setup([...held, ...session(`${COMMIT} && ${DONE}`)], ONE_AGENT(id));
        const item = await fileItem(jig, repo, 'one');
        const first = await eventually(
          async () => {
            const [s] = await sessions(jig, item.id);
            // Copilot prints its session id only in its last line: paused before it, it starts anew.
            return (s?.cli_session_id || id === 'copilot') && mock.main().length > 0 ? s : undefined;
          },
          { what: 'the CLI in its first model call, its session id read', tries: TRIES },
        ).catch(async (err: Error) => {
          throw new Error(`${err.message}\n${await explain(jig, item.id, mock)}`, { cause: err });
        });
        expect((await post(jig, `/api/work-items/${item.id}/pause`, {})).status).toBe(200);
        await settle(jig, item.id, mock, (i) => i.status === 'paused');
        expect((await post(jig, `/api/work-items/${item.id}/steer`, { note: STEER })).status).toBe(200);
        expect((await post(jig, `/api/work-items/${item.id}/resume`, {})).status).toBe(200);
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('completed');
        const ss = await sessions(jig, item.id);
        expect(ss.map((s) => s.status)).toEqual(['paused', 'done']);
        const started = (await events(jig, item.id)).filter((e) => e.type === 'worker_session_started');
        const argv = (started[1].payload.argv as string[]).join(' ');
        if (id === 'copilot') {
          // Copilot prints its session id only in its last line, which the pause's SIGTERM may or
          // may not let it write (by timing: a full run saw both). With the id, the launch resumes
          // that session; without it, it starts anew with the brief. Both carry the steer.
          expect(first.cli_session_id).toBeNull();
          expect(ss[1].cli_session_id).toEqual(expect.any(String));
          const paused: string | null = ss[0].cli_session_id;
          if (paused) expect(argv).toContain(`--resume=${paused}`);
          else expect(argv).not.toContain('--resume');
        } else {
          // Droid resumes with --fork: a new session id that carries the old one's history.
          if (id === 'droid') expect(ss[1].cli_session_id).not.toBe(first.cli_session_id);
          else expect(ss[1].cli_session_id).toBe(first.cli_session_id);
          expect(argv).toContain(first.cli_session_id);
        }
        // The next call carries the original prompt (history, or the brief again) and the steer after it.
        const resumed = texts(mock.main()[1]!.body);
        expect(resumed).toContain('Add hello.txt and commit it.');
        expect(resumed.lastIndexOf(STEER)).toBeGreaterThan(resumed.indexOf('Add hello.txt and commit it.'));
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
      },
      TEST_TIMEOUT,
    );

    it(
      'a task granted no shell: the command the model asks for never runs',
      async () => {
        const granted = id === 'droid' ? 'Read' : id === 'qwen' ? 'read_file' : 'write';
        const chain = ONE_AGENT(id, `        policy:\n          allowed_tools: [${granted}]\n`);
        const { jig, repo, home, mock } = await setup(
          [{ bash: `echo denied > denied.txt && ${DONE}` }, { say: 'Could not run it.' }],
          chain,
        );
        const item = await fileItem(jig, repo, 'one');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        if (id === 'opencode' || id === 'kilo') {
          // Tool rules live in its config file, not on its command line: the launch is refused.
          expect(done.status, why).toBe('stopped');
          expect(done.stop.reason, why).toMatch(/tool/);
          expect(mock.main()).toEqual([]);
          return;
        }
        expect(done.status, why).not.toBe('completed');
        const wt = (await events(jig, item.id)).find((e) => e.type === 'worktree_prepared')?.payload.path;
        expect(existsSync(join(wt, 'denied.txt')), why).toBe(false);
        expect(existsSync(join(home, 'denied.txt'))).toBe(false);
        const [s] = await sessions(jig, item.id);
        expect(s.readout.permission_denials, why).toBeGreaterThanOrEqual(id === 'droid' ? 0 : 1);
      },
      TEST_TIMEOUT,
    );
  });
}
