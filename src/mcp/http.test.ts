import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SERVERS, McpServers, parsed, requestContext } from './http.js';

/**
 * The pool behind `POST /mcp`: servers are reused, never more than MCP_SERVERS, each request's
 * tools run with that request's context (its worker), and the tool list is the SDK's own.
 */

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** A stand-in for the server's own API: answers every item read after a pause, counting overlap. */
let api: ReturnType<typeof createServer>;
let url = '';
let open = 0;
let mostOpen = 0;
const seen: { item: string; worker: string | undefined }[] = [];

beforeAll(async () => {
  api = createServer((req: IncomingMessage, res: ServerResponse) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    const h = req.headers['x-jig-work-item'];
    const item = /\/api\/work-items\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
    seen.push({ item, worker: Array.isArray(h) ? h[0] : h });
    setTimeout(() => {
      open -= 1;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `no work item ${item}`, code: 'item_not_found' }));
    }, 20);
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => api.close(() => r())));

const call = (id: number, item: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_work_item', arguments: { work_item_id: item } },
});

describe('McpServers', () => {
  it('answers 60 calls at once on at most MCP_SERVERS servers, each with its own caller', async () => {
    const pool = new McpServers('0.0.0');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const headers = { ...HEADERS, 'x-jig-work-item': `w${i}` };
        return pool.answer(headers, call(i, `i${i}`), requestContext(headers, { url, token: null }));
      }),
    );
    // Calls overlapped, on servers reused across requests: 60 answers from at most 8 servers.
    expect(pool.built).toBeLessThanOrEqual(MCP_SERVERS);
    expect(mostOpen).toBeLessThanOrEqual(MCP_SERVERS);
    expect(mostOpen).toBeGreaterThan(1);
    // Every call reached the API once, carrying the worker of the request that made it.
    expect(
      seen
        .filter((s) => s.item.startsWith('i'))
        .sort((a, b) => Number(a.item.slice(1)) - Number(b.item.slice(1))),
    ).toEqual(Array.from({ length: 60 }, (_, i) => ({ item: `i${i}`, worker: `w${i}` })));
    for (const [i, a] of answers.entries()) {
      expect(a.ok).toBe(true);
      const body = a.ok ? parsed(a.text) : null;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: i, result: { isError: true } });
      expect(JSON.stringify(body)).toContain(`no work item i${i}`);
    }
  });

  it('lists the tools as the SDK does, the same list every time', async () => {
    const pool = new McpServers('0.0.0');
    const ctx = requestContext(HEADERS, { url, token: null });
    const lists = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pool.answer(HEADERS, { jsonrpc: '2.0', id: i, method: 'tools/list' }, ctx),
      ),
    );
    const bodies = lists.map((a) => (a.ok ? parsed(a.text) : null));
    const tools = (bodies[0] as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.length).toBe(32);
    expect(tools.map((t) => t.name)).toContain('create_work_item');
    for (const [i, b] of bodies.entries()) expect(b).toEqual({ jsonrpc: '2.0', id: i, result: { tools } });
  });

  it('answers what the transport refuses as a refusal, and keeps serving', async () => {
    const pool = new McpServers('0.0.0');
    const ctx = requestContext(HEADERS, { url, token: null });
    const refused = await pool.answer(
      { 'content-type': 'application/json' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      ctx,
    );
    expect(refused).toMatchObject({ ok: false, status: 406 });
    const fine = await pool.answer(HEADERS, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, ctx);
    expect(fine.ok).toBe(true);
  });
});
