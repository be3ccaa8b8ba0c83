import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, JigClient } from '../src/client/http.js';
import { getItemDraft } from '../src/client/item-setup.js';
import { answerMcpPost } from '../src/mcp/http.js';
import { engineSetup } from './helpers/engine.js';
import { GATED, ok, scenario } from './helpers/mcp.js';
import { homeWithAccess, testHash } from './helpers/perimeter.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * `/mcp` on the server's own port, driven by the MCP SDK's Streamable HTTP client. A worker names
 * its item with the `x-jig-work-item` header, as the CLI does.
 */

let jig: JigProcess;
let repo: string;
let filed = '';
const clients: Client[] = [];

async function connect(headers: Record<string, string> = {}, url = jig.url): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
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

describe('/mcp (Streamable HTTP)', () => {
  it('lists the tools, files paused, resumes, refuses a worker on its own item, approves, answers errors as tool errors', async () => {
    const client = await connect();
    filed = await scenario(client, repo, (item) => connect({ 'x-jig-work-item': item }));
    // Over HTTP there is no cwd: an item tool needs its id. The scenario filed three (two of them
    // an item and the one that comes after it).
    expect((await ok(client, 'list_work_items')).total).toBe(3);
    // The MCP tools act for a person: their moves are recorded as an agent's, a browser's or the
    // CLI's as a person's (issue 41).
    const evs = (await http(`${jig.url}/api/work-items/${filed}/events?limit=1000`)).json.events;
    const by = (type: string) => evs.filter((e: any) => e.type === type).map((e: any) => e.by);
    expect([by('work_item_created'), by('work_item_started'), by('gate_approved')]).toEqual([
      ['agent'],
      ['agent'],
      ['agent'],
    ]);
  });

  it("sends the /mcp caller's worker to the API, not the server process's: the API refuses it its own draft", async () => {
    expect(filed).not.toBe('');
    const asWorker = new JigClient({ url: jig.url, token: null, source: 'JIG_URL', workItem: filed });
    const refused = await getItemDraft(asWorker, filed).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, body: { code: 'item_draft_own_item' } });
    // Not a worker: the API answers about the draft itself (the item has ended), not the refusal.
    const asPerson = new JigClient({ url: jig.url, token: null, source: 'JIG_URL', workItem: null });
    const other = await getItemDraft(asPerson, filed).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ApiError);
    expect((other as ApiError).body.code).not.toBe('item_draft_own_item');

    // The self client of an `/mcp` exchange carries the request's worker on every API call it makes.
    const seen: (string | undefined)[] = [];
    const api = createServer((req, res) => {
      const h = req.headers['x-jig-work-item'];
      seen.push(Array.isArray(h) ? h[0] : h);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'no work item w1', code: 'item_not_found' }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      const rpc = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_work_item', arguments: {} },
      };
      const headers = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'x-jig-work-item': 'w1',
      };
      const answer = await answerMcpPost(headers, rpc, { url, token: null }, '0.0.0');
      expect(answer.ok).toBe(true);
      expect(seen).toEqual(['w1']);
    } finally {
      await new Promise((r) => api.close(r));
    }
  });

  it('answers what the MCP transport refuses as {detail, code}, with its status', async () => {
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const noAccept = await http(`${jig.url}/mcp`, { method: 'POST', body: rpc });
    expect(noAccept.status).toBe(406);
    expect(noAccept.json).toEqual({
      detail: 'MCP: Not Acceptable: Client must accept both application/json and text/event-stream',
      code: 'bad_request',
    });
    const accept = { accept: 'application/json, text/event-stream' };
    const notRpc = await http(`${jig.url}/mcp`, { method: 'POST', body: { hello: 1 }, headers: accept });
    expect(notRpc.status).toBe(400);
    expect(notRpc.json).toEqual({
      detail: 'MCP: Parse error: Invalid JSON-RPC message',
      code: 'bad_request',
    });
  });

  it('answers 405 to GET and DELETE (stateless: no event stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await http(`${jig.url}/mcp`, { method });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(r.json).toMatchObject({
        code: 'method_not_allowed',
        detail: `${method} is not allowed on /mcp`,
      });
    }
  });
});

describe('/mcp off loopback (bound to 0.0.0.0 with a password)', () => {
  it('needs the MCP token like every guarded route; with it the tools reach the API', async () => {
    const home = homeWithAccess(`bind: 0.0.0.0\nport: 0\npassword_hash: "${await testHash('pw for mcp')}"\n`);
    const remote = await startJig({ home, args: [] });
    const url = remote.url.replace('0.0.0.0', '127.0.0.1');
    const refused = await http(`${url}/mcp`, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('login_required');

    const token = readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim();
    const client = await connect({ authorization: `Bearer ${token}` }, url);
    expect(await ok(client, 'list_work_items')).toMatchObject({ items: [], total: 0 });
  });
});
