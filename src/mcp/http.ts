import type { IncomingHttpHeaders } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ListToolsRequestSchema,
  ListToolsResultSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { JigClient } from '../client/http.js';
import { MCP_VIA } from '../contract/via.js';
import { buildMcpServer } from './server.js';
import type { ToolContext } from './tool.js';

/** Where the server's own API answers, and the token that opens it off loopback. */
export interface SelfApi {
  url: string;
  token: string | null;
}

/**
 * An MCP answer for the route to send: the transport's JSON-RPC text as it wrote it (sent as is:
 * parsing it to have Fastify write it again cost a tenth of a `tools/list`), or a refusal as
 * `{detail}`.
 */
export type McpAnswer =
  | { ok: true; status: number; text: string; contentType: string | null }
  | { ok: false; status: number; detail: string };

/** The request headers the MCP transport reads (the rest are the HTTP server's business). */
const PASSED = ['accept', 'content-type', 'mcp-protocol-version'] as const;

/**
 * Exchanges at once, and servers built at most; more requests wait their turn (most of a tool's
 * time is its call to the API, so a few servers keep up with many callers).
 */
export const MCP_SERVERS = 8;

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The JSON of an answer, or the text itself when it is none (or null when empty). */
export function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function rpcErrorMessage(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || !('error' in body)) return null;
  const err: unknown = body.error;
  if (err === null || typeof err !== 'object' || !('message' in err) || typeof err.message !== 'string')
    return null;
  return err.message;
}

/** A pooled server and the context of the request it is answering (null while idle). */
interface Pooled {
  readonly server: McpServer;
  ctx: ToolContext | null;
}

/** A request waiting for its turn. */
interface Job {
  headers: IncomingHttpHeaders;
  body: unknown;
  ctx: ToolContext;
  resolve: (a: McpAnswer) => void;
  reject: (err: unknown) => void;
}

/**
 * The `/mcp` servers of one process. Building an MCP server costs milliseconds (32 tools, a JSON
 * Schema validator of its own) and listing its tools converts every tool's schema again, so a fresh
 * server per request, with 200 requests at once, held the event loop for over a second. Servers
 * are built once, up to MCP_SERVERS, and each answers one request at a time on a transport of its
 * own (stateless, as before: nothing of a request is kept between requests but the server's
 * tools). The tool list does not change while the process runs: the first server computes it
 * through the SDK's own handler, and it is answered from then on.
 *
 * Requests wait in a queue, and at most MCP_SERVERS exchanges start in one turn of the event loop.
 * Requests that arrive together are read in one turn, and an exchange that does no I/O
 * (`tools/list`) is nothing but promises: started as they come, 200 of them ran back to back in
 * that turn, and nothing else (a health check, the board) was answered until the last was done.
 */
export class McpServers {
  private readonly idle: Pooled[] = [];
  private readonly queue: Job[] = [];
  private busy = 0;
  private servers = 0;
  private scheduled = false;
  private toolList: Promise<ListToolsResult> | null = null;

  constructor(private readonly version: string) {}

  /** Servers built so far (at most MCP_SERVERS). */
  get built(): number {
    return this.servers;
  }

  /** One Streamable HTTP exchange on a pooled server: the answer, or the transport's refusal. */
  answer(headers: IncomingHttpHeaders, body: unknown, ctx: ToolContext): Promise<McpAnswer> {
    return new Promise<McpAnswer>((resolve, reject) => {
      this.queue.push({ headers, body, ctx, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.busy >= MCP_SERVERS) return;
    this.scheduled = true;
    setImmediate(() => this.pump());
  }

  private pump(): void {
    this.scheduled = false;
    // However soon an exchange started here ends, the next pump is in a later turn: its end
    // schedules it. A server is built in a turn of its own (a burst on a cold server would
    // build them all together).
    let built = false;
    while (this.busy < MCP_SERVERS && this.queue.length > 0) {
      if (this.idle.length === 0) {
        if (built) return this.schedule();
        built = true;
      }
      const job = this.queue.shift();
      if (!job) return;
      this.busy += 1;
      void this.run(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.busy -= 1;
          this.schedule();
        });
    }
  }

  private async run(job: Job): Promise<McpAnswer> {
    const p = this.idle.pop() ?? (await this.build());
    p.ctx = job.ctx;
    try {
      const a = await exchange(p.server, job.headers, job.body);
      p.ctx = null;
      this.idle.push(p);
      return a;
    } catch (err) {
      // A server whose exchange failed is not used again.
      p.ctx = null;
      throw err;
    }
  }

  private async build(): Promise<Pooled> {
    this.servers += 1;
    const p: Pooled = { server: buildMcpServer(() => current(p), this.version), ctx: null };
    // A failed listing is asked again by the next server built, not kept.
    this.toolList ??= listTools(p.server).catch((err: unknown) => {
      this.toolList = null;
      throw err;
    });
    const list = await this.toolList;
    p.server.server.setRequestHandler(ListToolsRequestSchema, () => list);
    return p;
  }
}

function current(p: Pooled): ToolContext {
  if (p.ctx === null) throw new Error('an MCP tool ran outside a request');
  return p.ctx;
}

/** The SDK's own answer to `tools/list`, asked once. */
async function listTools(server: McpServer): Promise<ListToolsResult> {
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const a = await exchange(server, headers, { jsonrpc: '2.0', id: 0, method: 'tools/list' });
  const body = a.ok ? parsed(a.text) : null;
  const result = body !== null && typeof body === 'object' && 'result' in body ? body.result : null;
  return ListToolsResultSchema.parse(result);
}

/**
 * The HTTP request's context for the tools: a client of this server's own API, carrying the
 * caller's worker (`x-jig-work-item`, as the CLI sends it) so the API refuses a worker on its own
 * item's draft exactly as it would refuse the CLI.
 */
export function requestContext(headers: IncomingHttpHeaders, self: SelfApi): ToolContext {
  const worker = one(headers['x-jig-work-item'])?.trim() || null;
  return {
    client: new JigClient({
      url: self.url,
      token: self.token,
      source: 'JIG_URL',
      workItem: worker,
      via: MCP_VIA,
    }),
    caller: { item: worker, escalation: false },
    cwdItem: null,
    cwdRepo: null,
  };
}

/**
 * One Streamable HTTP exchange, stateless: a transport of its own, closed with the answer, which
 * is plain JSON. The tools call the same server's API over HTTP, exactly as the stdio server and
 * the CLI do: one path through the API's validation, refusals and events.
 */
async function exchange(server: McpServer, headers: IncomingHttpHeaders, body: unknown): Promise<McpAnswer> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const passed = new Headers();
  for (const name of PASSED) {
    const v = one(headers[name]);
    if (v !== undefined) passed.set(name, v);
  }
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: passed }),
      { parsedBody: body },
    );
    const text = await res.text();
    if (res.status >= 400) {
      const payload = parsed(text);
      const message =
        rpcErrorMessage(payload) ?? (typeof payload === 'string' ? payload : `HTTP ${res.status}`);
      return { ok: false, status: res.status, detail: `MCP: ${message}` };
    }
    return { ok: true, status: res.status, text, contentType: res.headers.get('content-type') };
  } finally {
    await server.close();
  }
}

/** One exchange on a server of its own (tests, and callers without a pool). */
export async function answerMcpPost(
  headers: IncomingHttpHeaders,
  body: unknown,
  self: SelfApi,
  version: string,
): Promise<McpAnswer> {
  return new McpServers(version).answer(headers, body, requestContext(headers, self));
}
