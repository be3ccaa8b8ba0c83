import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git.js';
import { cleanupAll, jigBin, startJig, type JigProcess } from '../helpers/server.js';
import { cli, cliEnv } from './clis.js';
import { privateHome } from './jig-env.js';
import { startMockModelServer, type MockModelServer } from './mock-model-server.js';

/*
 * The real Claude Code CLI (the pinned version), pointed at `jig admin mcp` with `--mcp-config`,
 * is told by the mock model to call `mcp__jig__create_work_item`: the item is filed, paused, as
 * everything an agent files is.
 */

const claude = cli('claude');
const run = promisify(execFile);
let jig: JigProcess | null = null;
let mock: MockModelServer | null = null;
afterAll(async () => {
  await mock?.close();
  await cleanupAll();
});

describe.skipIf(claude.skip !== undefined)(
  `Claude Code calls Jig's MCP tools${claude.skip ? ` — skipped: ${claude.skip}` : ''}`,
  () => {
    it('files a work item through mcp__jig__create_work_item, paused', { timeout: 120_000 }, async () => {
      jig = await startJig();
      const repo = makeRepo();
      const connected = await fetch(`${jig.url}/api/repos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: repo, test_command: '' }),
      });
      expect([200, 201]).toContain(connected.status);
      mock = await startMockModelServer([
        {
          tool: 'mcp__jig__create_work_item',
          input: { title: 'Filed by Claude through MCP', repo, description: 'from the e2e test' },
        },
        { say: 'Filed it.' },
      ]);
      const home = privateHome('jig-mcp');
      const config = join(home, 'mcp.json');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            jig: { command: process.execPath, args: [jigBin, 'admin', 'mcp'], env: { JIG_HOME: jig.home } },
          },
        }),
      );
      // Headless Claude goes on before its MCP servers connect unless told to wait: a loaded
      // machine saw the tool call come while `jig admin mcp` was still starting (docs/mcp.md).
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        MCP_CONNECTION_NONBLOCKING: 'false',
        ...cliEnv('claude', home, mock),
      };
      const out = await run(
        claude.bin!,
        [
          '-p',
          'File a work item for the README fix.',
          '--output-format',
          'stream-json',
          '--verbose',
          '--mcp-config',
          config,
          '--strict-mcp-config',
          '--allowedTools',
          'mcp__jig__create_work_item',
        ],
        { cwd: repo, env, timeout: 90_000 },
      ).catch((e: { stdout?: string; stderr?: string; message: string }) => ({
        stdout: e.stdout ?? '',
        stderr: `${e.message}\n${e.stderr ?? ''}`,
      }));
      const items = (await (await fetch(`${jig.url}/api/work-items`)).json()) as {
        items: { title: string; status: string }[];
      };
      const filed = items.items.find((i) => i.title === 'Filed by Claude through MCP');
      expect(filed, `${out.stdout}\n${out.stderr}`).toBeDefined();
      expect(filed?.status).toBe('paused');
      // The tool's answer went back to the model: the second request carries a tool_result.
      expect(JSON.stringify(mock.main().at(-1)?.body ?? null)).toContain('tool_result');
    });
  },
);
