import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git.js';
import { cleanupAll, jigBin, runJigProcess, startJig } from '../helpers/server.js';
import { cli, cliEnv } from './clis.js';
import { privateHome, removeHome, streamEvents, texts } from './jig-env.js';
import { startMockModelServer, type MockModelServer } from './mock-model-server.js';

/*
 * The real Claude Code CLI (the pinned version) in a private HOME and config dir: `jig admin plugin
 * install-claude` installs the plugin from the Jig home with Claude's own `claude plugin` verbs;
 * Claude then lists the /jig:* commands, and `/jig:status` in print mode sends the command's prompt
 * to the (mock) model, whose call of the plugin's MCP tool reaches Jig and comes back to the model.
 * Its allowed-tools grant the read, so no --allowedTools is given. A refresh with a new version
 * updates the plugin in Claude.
 */

const claude = cli('claude');
const run = promisify(execFile);
let mock: MockModelServer | null = null;
const homes: string[] = [];
afterAll(async () => {
  await mock?.close();
  await cleanupAll();
  for (const h of homes) await removeHome(h);
});

type Install = {
  dir: string;
  version: string;
  commands: string[];
  claude: { state: string; line: string; ran: string[] };
};

describe.skipIf(claude.skip !== undefined)(
  `the Claude Code plugin in the real Claude Code${claude.skip ? ` — skipped: ${claude.skip}` : ''}`,
  () => {
    it(
      'installs, lists the /jig:* commands, and /jig:status prompts the model and calls Jig through the plugin',
      { timeout: 180_000 },
      async () => {
        const jig = await startJig();
        const repo = makeRepo();
        const post = (path: string, body: unknown) =>
          fetch(`${jig.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        expect([200, 201]).toContain((await post('/api/repos', { path: repo, test_command: '' })).status);
        const title = 'Reported by /jig:status through the plugin';
        expect((await post('/api/work-items', { title, repo })).status).toBe(201);

        const tool = 'mcp__plugin_jig_jig__list_work_items';
        mock = await startMockModelServer([{ tool, input: {} }, { say: 'One paused item.' }]);
        const home = privateHome('jig-plugin');
        homes.push(home);
        const bin = join(home, 'bin');
        mkdirSync(bin);
        symlinkSync(claude.bin!, join(bin, 'claude'));
        // The CLI's own config in the private home: nothing reaches a real ~/.claude.
        const env = {
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          HOME: home,
          JIG_HOME: jig.home,
          // Headless Claude connects its MCP servers before the first turn only when told (docs/mcp.md).
          MCP_CONNECTION_NONBLOCKING: 'false',
          ...cliEnv('claude', home, mock),
        };

        const installed = await runJigProcess(['admin', 'plugin', 'install-claude', '--json'], env);
        expect(installed.code, installed.stderr + installed.stdout).toBe(0);
        const first = JSON.parse(installed.stdout) as Install;
        expect(first.claude.state, first.claude.line).toBe('changed');
        expect(first.claude.ran).toEqual([
          `claude plugin marketplace add --scope user ${first.dir}`,
          'claude plugin install -s user jig@jig',
        ]);
        // Claude's own validator takes the marketplace and the plugin, warnings counted as errors.
        for (const target of [first.dir, join(first.dir, 'jig')]) {
          const v = await run(claude.bin!, ['plugin', 'validate', '--strict', target], {
            env,
            timeout: 60_000,
          });
          expect(v.stdout).toContain('Validation passed');
        }

        const out = await run(
          claude.bin!,
          ['-p', '/jig:status', '--output-format', 'stream-json', '--verbose'],
          {
            cwd: repo,
            env,
            timeout: 120_000,
          },
        ).catch((e: { stdout?: string; stderr?: string; message: string }) => ({
          stdout: e.stdout ?? '',
          stderr: `${e.message}\n${e.stderr ?? ''}`,
        }));
        const shown = `${out.stdout}\n${out.stderr}`;
        const events = streamEvents(out.stdout);
        const init = events.find((e) => e.type === 'system' && e.subtype === 'init') as
          { slash_commands: string[]; mcp_servers: { name: string; status: string }[] } | undefined;
        expect(init, shown).toBeDefined();
        expect(first.commands).toHaveLength(10);
        for (const c of first.commands) expect(init!.slash_commands, shown).toContain(c.slice(1));
        expect(init!.mcp_servers).toContainEqual({ name: 'plugin:jig:jig', status: 'connected' });

        // The model got the command's prompt: every line of the installed file's body that does
        // not carry the (empty) arguments.
        const [firstTurn, secondTurn] = mock.main();
        expect(firstTurn, shown).toBeDefined();
        expect(firstTurn!.tools).toContain(tool);
        const sent = texts(firstTurn!.body);
        const body = readFileSync(join(first.dir, 'jig', 'commands', 'status.md'), 'utf8').split(
          '\n---\n',
        )[1]!;
        const lines = body.split('\n').filter((l) => l.trim() !== '' && !l.includes('$ARGUMENTS'));
        expect(lines.length).toBeGreaterThan(2);
        for (const l of lines) expect(sent, l).toContain(l.trim());
        // Jig answered the tool call (its list holds the item filed above) and the answer went back.
        expect(secondTurn, shown).toBeDefined();
        const messages = (secondTurn!.body as { messages: { content: unknown }[] }).messages;
        const results = messages
          .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : []))
          .filter((b) => b.type === 'tool_result');
        const answer = texts(results.at(-1)?.content ?? null);
        expect(answer.includes(title), `the tool result: ${answer.slice(0, 500)}`).toBe(true);
        const result = events.find((e) => e.type === 'result') as
          { is_error: boolean; permission_denials: unknown[] } | undefined;
        expect(result?.is_error, shown).toBe(false);
        expect(result?.permission_denials).toEqual([]);

        // A refresh with a new launch (a `jig` on PATH) stamps a new version; Claude updates to it.
        symlinkSync(jigBin, join(bin, 'jig'));
        const again = await runJigProcess(['admin', 'plugin', 'install-claude', '--json'], env);
        expect(again.code, again.stderr + again.stdout).toBe(0);
        const second = JSON.parse(again.stdout) as Install;
        expect(second.version).not.toBe(first.version);
        expect(second.claude.line).toBe(
          `updated jig@jig from ${first.version} to ${second.version} (ran claude plugin marketplace update jig; claude plugin update -s user jig@jig)`,
        );
        const listed = await run(claude.bin!, ['plugin', 'list', '--json'], { env, timeout: 60_000 });
        expect(JSON.parse(listed.stdout)).toContainEqual(
          expect.objectContaining({ id: 'jig@jig', version: second.version, scope: 'user', enabled: true }),
        );
      },
    );
  },
);
