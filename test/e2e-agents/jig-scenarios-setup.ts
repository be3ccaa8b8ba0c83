import { expect } from 'vitest';
import { agentSetup, sessions } from '../helpers/agents.js';
import { events, until } from '../helpers/engine.js';
import { cleanupAll, http, type JigProcess } from '../helpers/server.js';
import { cli, type ScenarioCliId as CliId } from './clis.js';
import { mockEnv, privateHome, realHarnesses, removeHome, sessionLog } from './jig-env.js';
import { startMockModelServer, type MockModelServer, type Turn } from './mock-model-server.js';

/*
 * Issue 9: the six scenarios through Jig's HTTP API with the REAL agent CLIs (pinned, installed
 * under .cache/agent-clis by install-clis.mjs) against the mock model server on loopback. Jig runs
 * from dist/ (`npm run build` first). A scenario whose CLI is not installed is skipped with the
 * reason in its title — never passed.
 */

const mocks: MockModelServer[] = [];
export const homes: string[] = [];
/** Each scenario file's afterAll: the servers, the mocks and the CLI homes its tests made. */
export async function closeScenarios(): Promise<void> {
  await cleanupAll();
  for (const m of mocks) await m.close();
  for (const h of homes) await removeHome(h);
}

export const ended = (i: any): boolean => i.status !== 'running' && i.status !== 'queued';
/*
 * Polls of 100 ms: bounds each wait on the item. The bounds catch a hang, not slowness: a real CLI
 * session is CPU-bound before its first model call (Kilo 7.7.7 spends 12–14 s of CPU there, alone on
 * this machine; Claude Code and Codex 2–4 s), and in a full run four workers share two cores with
 * the servers and CLIs they start, so a session takes four to six times as long as alone (the Kilo
 * file: 64 s alone, 283 s in a full run). A 90 s bound failed a CI run on two sessions that were
 * only slow (docs/testing.md).
 */
export const TRIES = 3000;
export const TEST_TIMEOUT = 600_000;

/** Waits for the item to reach `ok`; a wait that gives up says what the CLI and the mock did. */
export async function settle(
  jig: JigProcess,
  id: string,
  mock: MockModelServer,
  ok: (item: any) => boolean = ended,
): Promise<any> {
  return until(jig, id, ok, TRIES).catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await explain(jig, id, mock)}`, { cause: err });
  });
}

const CLIS = { claude: cli('claude'), codex: cli('codex'), gemini: cli('gemini') };
/** The reason a scenario needing these CLIs is skipped, or '' when all are installed. */
export function missing(...ids: CliId[]): string {
  return ids
    .map((id) => CLIS[id].skip)
    .filter(Boolean)
    .join('; ');
}
export const title = (name: string, ...ids: CliId[]): string => {
  const why = missing(...ids);
  return why ? `${name} — skipped: ${why}` : name;
};
const bins = (): Partial<Record<CliId, string>> =>
  Object.fromEntries(
    (Object.keys(CLIS) as CliId[]).flatMap((id) => (CLIS[id].bin ? [[id, CLIS[id].bin]] : [])),
  );

/** Jig with the real CLIs as harnesses, a repo whose env points every CLI at a fresh mock. */
export async function setup(
  script: Turn[],
  chains: Record<string, string>,
  opts: { testCommand?: string; home?: string } = {},
): Promise<{ jig: JigProcess; repo: string; home: string; mock: MockModelServer; cliHome: string }> {
  const mock = await startMockModelServer(script);
  mocks.push(mock);
  const cliHome = privateHome('jig');
  homes.push(cliHome);
  const { jig, repo, home } = await agentSetup(chains, {
    harnesses: realHarnesses(bins()),
    env: mockEnv(cliHome, mock),
    ...(opts.testCommand !== undefined ? { testCommand: opts.testCommand } : {}),
    ...(opts.home !== undefined ? { home: opts.home } : {}),
  });
  return { jig, repo, home, mock, cliHome };
}

/** One agent session's turns: run `command` with the CLI's shell tool, then end with text. */
export function session(command: string, usage = { input: 1200, output: 300 }): Turn[] {
  return [{ usage }, { bash: command }, { usage: { input: 1500, output: 40 } }, { say: 'Finished.' }];
}

export const COMMIT =
  "printf 'hello\\n' > hello.txt && git add hello.txt && git commit -q -m 'agent: add hello'";

/** What the CLI sent, the item and its sessions: shown when an assertion fails. */
export async function explain(jig: JigProcess, id: string, mock: MockModelServer): Promise<string> {
  const item = (await http(`${jig.url}/api/work-items/${id}`)).json;
  const ss = await sessions(jig, id);
  const evs = (await events(jig, id)).map(
    (e) => `${e.type} ${JSON.stringify(e.payload ?? {}).slice(0, 300)}`,
  );
  const logs = ss
    .filter((s) => s.kind === 'agent')
    .map((s) => `--- ${s.id} ${s.task_path} ---\n${sessionLog(jig.home, s.id).slice(-2500)}`);
  return [
    `item: ${JSON.stringify({ status: item.status, node: item.current_node, stop: item.stop })}`,
    `sessions: ${JSON.stringify(ss.map((s) => [s.task_path, s.harness, s.status, s.note]))}`,
    `events:\n${evs.join('\n')}`,
    `requests: ${mock.requests.map((q) => `${q.method} ${q.path} ${q.status}${q.main ? ' main' : ''}`).join(', ')}`,
    ...logs,
    `jig stderr: ${jig.stderr().slice(-2000)}`,
  ].join('\n');
}

export const tokensOf = (s: any): number =>
  s.tokens.input + s.tokens.output + s.tokens.cache_read + s.tokens.cache_write;

/** Usage recorded on the agent sessions matches what the mock reported, and the item totals them. */
export function expectSpend(item: any, agentSessions: any[], mock: MockModelServer): void {
  const sum = (k: 'input' | 'output' | 'cache_read') =>
    agentSessions.reduce((n, s) => n + (s.tokens[k] as number), 0);
  expect({ input: sum('input'), output: sum('output'), cache_read: sum('cache_read') }).toEqual(
    mock.reported,
  );
  expect(item.spent_tokens).toBe(agentSessions.reduce((n, s) => n + tokensOf(s), 0));
  const usd = agentSessions.reduce((n, s) => n + (s.cost_usd as number), 0);
  expect(usd).toBeGreaterThan(0);
  expect(item.spent_usd).toBeCloseTo(usd, 9);
}

export const ONE_AGENT = (harness: string, policy = ''): string => `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: ${harness}
        prompt: Add hello.txt and commit it.
${policy}`;
