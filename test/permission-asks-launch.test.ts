import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines } from './helpers/agents.js';
import { fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, jigBin, tempHome, type JigProcess } from './helpers/server.js';

/*
 * With the permission_prompt capability of the packaged claude provider file, Claude is
 * launched so that a tool call its launch neither granted nor denied asks a person
 * through Jig: --permission-prompt-tool names Jig's tool and --mcp-config Jig's own stdio server,
 * speaking for this item. An item nobody watches (filed by a trigger) is launched without it: its
 * undecided calls are denied at once, as before. The fake claude logs the argv it was given.
 */
const CHAIN = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        prompt: Do the work.
`;

const FAILING = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: broken
        kind: subprocess
        run: 'exit 1'
`;

let jig: JigProcess;
let repo: string;
let home: string;
let log: string;

beforeAll(async () => {
  log = join(mkdtempSync(join(tmpdir(), 'jig-argv-')), 'argv.jsonl');
  ({ jig, repo, home } = await agentSetup(
    { one: CHAIN, failing: FAILING },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARGV_LOG: log } },
  ));
});
afterAll(cleanupAll);

const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];

describe('the permission prompt at launch', () => {
  it("a person's item: Claude asks Jig's permission_request, through Jig's MCP server for this item", async () => {
    const item = await fileItem(jig, repo, 'one');
    await until(jig, item.id, (i) => i.status === 'completed');
    const argv: string[] = jsonLines(log).at(-1);
    expect(after(argv, '--permission-prompt-tool')).toBe('mcp__jig__permission_request');
    const config = JSON.parse(after(argv, '--mcp-config')!);
    expect(config).toEqual({
      mcpServers: {
        jig: {
          command: process.execPath,
          args: [expect.stringMatching(/bin[/\\]jig\.js$/), 'admin', 'mcp'],
          env: { JIG_HOME: home, JIG_WORK_ITEM_ID: item.id },
        },
      },
    });
    expect(existsSync(config.mcpServers.jig.args[0])).toBe(true);
    expect(config.mcpServers.jig.args[0]).toBe(jigBin);
  });

  it('a user provider file that removes the capability (null) launches no prompt tool', async () => {
    // A user file merges over the packaged one; null removes a key.
    const own = tempHome();
    mkdirSync(join(own, 'config', 'harnesses'), { recursive: true });
    writeFileSync(
      join(own, 'config', 'harnesses', 'claude.yaml'),
      'id: claude\ncapabilities:\n  permission_prompt: null\n',
    );
    const plain = await agentSetup(
      { one: CHAIN },
      { home: own, env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARGV_LOG: log } },
    );
    const before = jsonLines(log).length;
    const item = await fileItem(plain.jig, plain.repo, 'one');
    await until(plain.jig, item.id, (i) => i.status === 'completed');
    const argv: string[] = jsonLines(log).slice(before).at(-1);
    expect(argv).not.toContain('--permission-prompt-tool');
  });

  it('an escalation turn is not the worker: launched without the prompt tool', async () => {
    const item = await fileItem(jig, repo, 'failing');
    await until(jig, item.id, (i) => i.status === 'stopped');
    const before = jsonLines(log).length;
    const asked = await post(jig, `/api/work-items/${item.id}/escalate`, { message: 'Look at it.' });
    expect(asked.status, asked.text).toBe(202);
    await eventually(() => jsonLines(log).length > before, {
      what: 'the escalation turn launched',
    });
    const argv: string[] = jsonLines(log).slice(before).at(-1);
    expect(argv).toContain('-p');
    expect(argv).not.toContain('--permission-prompt-tool');
  });

  it('an item a trigger filed runs unattended: no permission prompt, undecided calls are denied at once', async () => {
    const before = jsonLines(log).length;
    const filed = await post(jig, '/api/triggers', { title: 'From a trigger', repo, chain: 'one' });
    expect([200, 201, 202]).toContain(filed.status);
    const id = filed.json.id ?? filed.json.item?.id ?? filed.json.work_item_id;
    expect(typeof id).toBe('string');
    expect((await post(jig, `/api/work-items/${id}/resume`, {})).status).toBe(200);
    await until(jig, id, (i) => i.status === 'completed');
    const argv: string[] = jsonLines(log).slice(before).at(-1);
    expect(argv).not.toContain('--permission-prompt-tool');
    expect(argv).not.toContain('--mcp-config');
  });
});
