import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { makeRepo } from '../helpers/git.js';
import { events, fileItem, until } from '../helpers/engine.js';
import { cleanupAll, http, jigBin, startJig, type JigProcess } from '../helpers/server.js';
import { cli, cliEnv } from './clis.js';
import { privateHome, resultCmd } from './jig-env.js';
import {
  closeScenarios,
  ended,
  explain,
  missing,
  setup,
  TEST_TIMEOUT,
  title,
  TRIES,
} from './jig-scenarios-setup.js';
import { startMockModelServer, type MockModelServer } from './mock-model-server.js';

/*
 * The real Claude Code CLI with Jig's MCP tool as its --permission-prompt-tool: the mock model asks
 * for a Bash call that --allowedTools does not grant; Claude asks the tool, the ask waits in Jig, a
 * person allows it from the API, and Claude runs the command. This pins the answer shape the real
 * CLI reads ({behavior: allow, updatedInput}).
 */

const claude = cli('claude');
const run = promisify(execFile);
let jig: JigProcess | null = null;
let mock: MockModelServer | null = null;
afterAll(async () => {
  await mock?.close();
  await cleanupAll();
});

/** Every line Claude Code logged of its MCP servers under `home` (its cache's mcp-logs-*). */
function mcpLogs(home: string): string {
  const root = join(home, '.cache');
  if (!existsSync(root)) return '(none)';
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /mcp-logs-[^/]+\/[^/]+\.jsonl$/.test(f))
    .map((f) => `${f}:\n${readFileSync(join(root, f), 'utf8')}`)
    .join('\n');
}

const CHAIN = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: 'sleep 600'
`;

describe.skipIf(claude.skip !== undefined)(
  `Claude Code asks a person through Jig${claude.skip ? ` — skipped: ${claude.skip}` : ''}`,
  () => {
    it(
      'an ungranted Bash call waits for an allow from the API, then runs',
      { timeout: 120_000 },
      async () => {
        const jigHome = privateHome('jig-perm-home');
        const { mkdirSync } = await import('node:fs');
        mkdirSync(join(jigHome, 'config', 'chains'), { recursive: true });
        writeFileSync(join(jigHome, 'config', 'chains', 'hold.yaml'), CHAIN);
        jig = await startJig({ home: jigHome });
        const repo = makeRepo();
        const connected = await http(`${jig.url}/api/repos`, {
          method: 'POST',
          body: { path: repo, test_command: '', setup_command: '' },
        });
        expect(connected.status).toBe(201);
        // An item that runs (its task sleeps past the test's end, when it is cancelled): the worker
        // whose ask this is. A shorter sleep could end it while a loaded machine starts Claude.
        const item = await http(`${jig.url}/api/work-items`, {
          method: 'POST',
          body: { title: 'Hold', repo, chain: 'hold', start: true },
        });
        const id: string = item.json.id;
        await until(jig, id, (i) => i.status === 'running');

        mock = await startMockModelServer([{ bash: 'echo asked > asked.txt' }, { say: 'Done.' }]);
        const home = privateHome('jig-perm');
        const config = join(home, 'mcp.json');
        writeFileSync(
          config,
          JSON.stringify({
            mcpServers: {
              jig: {
                command: process.execPath,
                args: [jigBin, 'admin', 'mcp'],
                env: { JIG_HOME: jigHome, JIG_WORK_ITEM_ID: id },
              },
            },
          }),
        );
        // As Jig launches it (defaults/harnesses/claude.yaml): headless Claude otherwise goes on
        // before its MCP servers connect, and a loaded machine saw the Bash call fail with the
        // permission tool "not found" while `jig admin mcp` was still starting.
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: home,
          MCP_CONNECTION_NONBLOCKING: 'false',
          ...cliEnv('claude', home, mock),
        };
        const controller = new AbortController();
        let ended: { stdout: string; stderr: string } | null = null;
        const running = run(
          claude.bin!,
          [
            '-p',
            'Write asked.txt.',
            '--output-format',
            'stream-json',
            '--verbose',
            '--mcp-config',
            config,
            '--strict-mcp-config',
            '--permission-prompt-tool',
            'mcp__jig__permission_request',
          ],
          { cwd: repo, env, timeout: 90_000, signal: controller.signal },
        )
          .catch((e: { stdout?: string; stderr?: string; message: string }) => ({
            stdout: e.stdout ?? '',
            stderr: `${e.message}\n${e.stderr ?? ''}`,
          }))
          .then((out) => (ended = out));
        // Claude's side of it, for a wait that gives up: what it printed, what it logged of starting
        // Jig's MCP server (under its HOME's cache), and what it asked the model. Without the MCP
        // server, its Bash call fails at once and Claude ends.
        const claudeSide = async (): Promise<string> => {
          controller.abort();
          const out = await running;
          const asked = (mock?.requests ?? []).map(
            (q) => `${q.method} ${q.path}${q.main ? ' (main)' : ''} ${q.status}`,
          );
          return `claude's output:\n${out.stdout}\n${out.stderr}\nits MCP log:\n${mcpLogs(home)}\nthe model server's requests: ${asked.join(', ') || 'none'}`;
        };
        const asks = `${jig.url}/api/permission-asks?state=pending`;
        const ask = await eventually(
          async () => {
            const pending = (await http(asks)).json.asks[0];
            if (pending === undefined && ended) return { ended };
            return pending;
          },
          { what: 'Claude to ask', tries: 600 },
        ).catch(async (err: Error) => {
          throw new Error(`${err.message}\n${await claudeSide()}`);
        });
        if ('ended' in ask) throw new Error(`Claude ended without asking\n${await claudeSide()}`);
        expect(ask).toMatchObject({ work_item_id: id, tool_name: 'Bash', state: 'pending' });
        expect(JSON.stringify(ask.input)).toContain('echo asked > asked.txt');
        const answered = await http(`${jig.url}/api/work-items/${id}/permission-asks/${ask.id}/answer`, {
          method: 'POST',
          body: { decision: 'allow' },
        });
        expect(answered.status).toBe(200);
        const out = await running;
        expect(existsSync(join(repo, 'asked.txt')), `${out.stdout}\n${out.stderr}`).toBe(true);
        expect(readFileSync(join(repo, 'asked.txt'), 'utf8')).toBe('asked\n');
        await http(`${jig.url}/api/work-items/${id}/cancel`, {
          method: 'POST',
          body: { reason: 'test over' },
        });
      },
    );
  },
);

describe.skipIf(missing('claude') !== '')(
  title('Jig launches Claude Code with its permission prompt', 'claude'),
  () => {
    afterAll(closeScenarios);
    it(
      'the task policy grants only Read; the Bash call asks a person; allowed, it runs and the item completes',
      { timeout: TEST_TIMEOUT },
      async () => {
        const chain = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Write asked.txt.
        policy:
          allowed_tools: [Read]
`;
        const r = await setup(
          [{ bash: `echo asked > asked.txt && ${resultCmd({ status: 'done' })}` }, { say: 'Done.' }],
          { asking: chain },
        );
        const item = await fileItem(r.jig, r.repo, 'asking');
        // The pending ask, or null once the item has ended without one.
        const ask = await eventually(
          async () => {
            const pending = (await http(`${r.jig.url}/api/permission-asks?state=pending`)).json.asks[0];
            if (pending) return pending;
            return ended((await http(`${r.jig.url}/api/work-items/${item.id}`)).json) ? null : undefined;
          },
          { what: 'Claude to ask', tries: TRIES },
        );
        expect(ask, await explain(r.jig, item.id, r.mock)).not.toBeNull();
        expect(ask).toMatchObject({ work_item_id: item.id, tool_name: 'Bash' });
        const allowed = await http(
          `${r.jig.url}/api/work-items/${item.id}/permission-asks/${ask.id}/answer`,
          {
            method: 'POST',
            body: { decision: 'allow' },
          },
        );
        expect(allowed.status).toBe(200);
        const done = await until(r.jig, item.id, ended, TRIES);
        expect(done.status, await explain(r.jig, item.id, r.mock)).toBe('completed');
        const wt = (await events(r.jig, item.id)).find((e) => e.type === 'worktree_prepared').payload.path;
        expect(readFileSync(join(wt, 'asked.txt'), 'utf8')).toBe('asked\n');
      },
    );
  },
);
