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
import { engineSetup, oneCommand } from './helpers/engine.js';
import { GATED, call, ok, scenario, untilTool } from './helpers/mcp.js';
import { homeWithAccess, testHash } from './helpers/perimeter.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';
import { resolveExecutable } from '../src/runtime/harness/installed.js';

/*
 * `/mcp` on the server's own port, driven by the MCP SDK's Streamable HTTP client. A worker names
 * its item with the `x-jig-work-item` header, as the CLI does.
 */

/** A gate before an agent task: a resume's steer for the task is recorded, and no agent starts. */
const STEERED = `
nodes:
  - id: hold
    kind: gate
    message: Not yet
  - id: work
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Do the work.
`;

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
  ({ jig, repo } = await engineSetup({ gated: GATED, steered: STEERED, fails: oneCommand('exit 3') }));
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

describe('act tools: resume steers, skip path, retry restart', () => {
  const typed = async (id: string, type: string): Promise<any[]> =>
    (await http(`${jig.url}/api/work-items/${id}/events?limit=1000`)).json.events.filter(
      (e: any) => e.type === type,
    );
  const stoppedFailed = (i: any) => i.status === 'stopped' && i.stop?.kind === 'failed';

  it('lists the new inputs of resume, retry, skip and escalate', async () => {
    const client = await connect();
    const tools = (await client.listTools()).tools;
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as any;
    expect(props('resume_work_item').steers).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', minLength: 1 },
    });
    expect(props('resume_work_item').steer).toMatchObject({ type: 'string' });
    expect(props('retry_work_item').restart).toMatchObject({ type: 'boolean' });
    expect(props('skip_work_item').path).toMatchObject({ type: 'string' });
    expect(props('escalate_work_item').new_thread).toMatchObject({ type: 'boolean' });
    // Each new input may be left out.
    const required = (name: string) => tools.find((t) => t.name === name)!.inputSchema.required ?? [];
    for (const name of ['resume_work_item', 'retry_work_item', 'skip_work_item'])
      expect(required(name), name).toEqual([]);
    expect(required('escalate_work_item')).toEqual(['message']);
  });

  it('resume_work_item takes steers by task path: a path naming no agent task is refused, a good one recorded', async () => {
    const client = await connect();
    const item = await ok(client, 'create_work_item', { title: 'MCP steers', repo, chain: 'steered' });
    // Filed through the MCP tools: the board says an agent filed it, not a person.
    expect([item.source, item.status]).toEqual(['agent', 'paused']);
    // This server runs the seeded harnesses: whether claude launches is this machine's to say.
    const missing = [
      {
        node: 'work',
        task: 'work.main.implement',
        reason: 'claude: claude is not installed here (not on PATH)',
      },
    ];
    const dry = await ok(client, 'create_work_item', {
      title: 'MCP dry',
      repo,
      chain: 'steered',
      dry_run: true,
    });
    expect(dry).toMatchObject({
      dry_run: true,
      would_file: {
        title: 'MCP dry',
        chain: 'steered',
        cannot_launch: resolveExecutable('claude') ? [] : missing,
      },
    });
    expect(
      await call(client, 'resume_work_item', { work_item_id: item.id, steers: { 'work.main.review': 'x' } }),
    ).toMatchObject({
      isError: true,
      text: 'body.steers.work.main.review: names no agent task of chain steered (its agent tasks: work.main.implement) (HTTP 422, validation_failed)',
    });
    expect((await ok(client, 'get_work_item', { work_item_id: item.id })).status).toBe('paused');

    await ok(client, 'resume_work_item', {
      work_item_id: item.id,
      steer: 'Mind the docs.',
      steers: { 'work.main.implement': 'Use the new API.' },
    });
    await untilTool(client, item.id, (i) => i.stop?.kind === 'gate');
    expect((await typed(item.id, 'work_item_started')).map((e) => [e.by, e.payload])).toEqual([
      [
        'agent',
        { status: 'running', note: 'Mind the docs.', steers: { 'work.main.implement': 'Use the new API.' } },
      ],
    ]);
    await ok(client, 'cancel_work_item', { work_item_id: item.id, reason: 'test over' });
  });

  it('skip_work_item with a path marks a node to come, or a task of the node a stopped item is at', async () => {
    const client = await connect();
    const paused = await ok(client, 'create_work_item', { title: 'MCP skip ahead', repo, chain: 'gated' });
    const marked = await ok(client, 'skip_work_item', { work_item_id: paused.id, path: 'review' });
    expect(marked).toMatchObject({ id: paused.id, status: 'paused', skip_nodes: ['review'] });
    expect((await typed(paused.id, 'skip_nodes_changed')).map((e) => [e.by, e.payload])).toEqual([
      ['agent', { from: [], to: ['review'] }],
    ]);
    const bad = await call(client, 'skip_work_item', { work_item_id: paused.id, path: 'Not a path' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/\(HTTP 422, validation_failed\)$/);
    await ok(client, 'cancel_work_item', { work_item_id: paused.id, reason: 'test over' });

    // A stopped item: its failed task is marked to pass, and the item goes on past it to the end.
    const stopped = await ok(client, 'create_work_item', { title: 'MCP skip inside', repo, chain: 'fails' });
    await ok(client, 'resume_work_item', { work_item_id: stopped.id });
    await untilTool(client, stopped.id, stoppedFailed);
    await ok(client, 'skip_work_item', { work_item_id: stopped.id, path: 'only.main.t', note: 'not needed' });
    const done = await untilTool(client, stopped.id, (i) => i.status === 'completed');
    expect(done.skip_nodes).toEqual([]);
    expect((await typed(stopped.id, 'node_skipped')).map((e) => [e.by, e.node, e.payload])).toEqual([
      ['agent', 'only', { node: 'only', path: 'only.main.t', note: 'not needed' }],
    ]);
  });

  it('retry_work_item with restart: true is recorded on work_item_retried', async () => {
    const client = await connect();
    const item = await ok(client, 'create_work_item', { title: 'MCP retry', repo, chain: 'fails' });
    await ok(client, 'resume_work_item', { work_item_id: item.id });
    await untilTool(client, item.id, stoppedFailed);
    const retried = await ok(client, 'retry_work_item', { work_item_id: item.id, restart: true });
    expect(retried.id).toBe(item.id);
    await untilTool(client, item.id, stoppedFailed);
    expect((await typed(item.id, 'work_item_retried')).map((e) => [e.by, e.payload])).toEqual([
      ['agent', { node: 'only', from: 'only', step: 'only.main', task: null, restart: true }],
    ]);
    await ok(client, 'cancel_work_item', { work_item_id: item.id, reason: 'test over' });
  });
});
