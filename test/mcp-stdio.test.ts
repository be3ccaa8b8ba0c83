import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSetup } from './helpers/engine.js';
import { GATED, ok, scenario } from './helpers/mcp.js';
import { cleanupAll, jigBin, type JigProcess } from './helpers/server.js';

/*
 * `jig admin mcp` (the built CLI) driven by the MCP SDK's own client over stdio, against a real
 * server whose chain needs no agent CLI.
 */

let jig: JigProcess;
let repo: string;
const clients: Client[] = [];

async function connect(env: Record<string, string> = {}, cwd?: string): Promise<Client> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== 'JIG_WORK_ITEM_ID' && k !== 'JIG_URL') base[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [jigBin, 'admin', 'mcp'],
    env: { ...base, JIG_HOME: jig.home, ...env },
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'jig-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ gated: GATED }));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await cleanupAll();
});

describe('jig admin mcp (stdio)', () => {
  it('lists the tools, files paused, resumes, refuses a worker on its own item, approves, answers errors as tool errors', async () => {
    const client = await connect();
    const id = await scenario(client, repo, (item) => connect({ JIG_WORK_ITEM_ID: item }));

    // Inside the item's worktree, work_item_id defaults to that item; repo to the repo it was cut from.
    const inTree = await connect({}, join(jig.home, 'run', 'worktrees', id));
    expect((await ok(inTree, 'get_work_item')).id).toBe(id);
    const filed = await ok(inTree, 'create_work_item', { title: 'Filed from a worktree', chain: 'gated' });
    expect(filed).toMatchObject({ repo, status: 'paused' });
    expect((await ok(inTree, 'cancel_work_item', { work_item_id: filed.id, reason: 'test' })).status).toBe(
      'cancelled',
    );
  });
});
