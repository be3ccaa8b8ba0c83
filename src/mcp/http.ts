import type { IncomingHttpHeaders } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JigClient } from '../client/http.js';
import { MCP_VIA } from '../contract/via.js';
import { buildMcpServer } from './server.js';

/** Where the server's own API answers, and the token that opens it off loopback. */
export interface SelfApi {
  url: string;
  token: string | null;
}

/** An MCP answer for the route to send: a JSON-RPC payload, or a refusal as `{detail}`. */
export type McpAnswer =
  | { ok: true; status: number; body: unknown; contentType: string | null }
  | { ok: false; status: number; detail: string };

/** The request headers the MCP transport reads (the rest are the HTTP server's business). */
const PASSED = ['accept', 'content-type', 'mcp-protocol-version'] as const;

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function rpcErrorMessage(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || !('error' in body)) return null;
  const err: unknown = body.error;
  if (err === null || typeof err !== 'object' || !('message' in err) || typeof err.message !== 'string')
    return null;
  return err.message;
}

/**
 * One Streamable HTTP exchange, stateless: each POST gets a fresh MCP server and transport, so no
 * session lives in the server between requests (nothing to expire, nothing to leak across callers)
 * and the answer is plain JSON. The tools call the same server's API over HTTP (`self`), exactly as
 * the stdio server and the CLI do: one path through the API's validation, refusals and events.
 * A worker names its item in the `x-jig-work-item` header, as the CLI does.
 */
export async function answerMcpPost(
  headers: IncomingHttpHeaders,
  body: unknown,
  self: SelfApi,
  version: string,
): Promise<McpAnswer> {
  const worker = one(headers['x-jig-work-item'])?.trim();
  const server = buildMcpServer(
    {
      // The worker is the caller's, not this server process's: the API refuses it on its own item's draft.
      client: new JigClient({
        url: self.url,
        token: self.token,
        source: 'JIG_URL',
        workItem: worker ? worker : null,
        via: MCP_VIA,
      }),
      caller: { item: worker ? worker : null, escalation: false },
      cwdItem: null,
      cwdRepo: null,
    },
    version,
  );
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
    let payload: unknown = null;
    if (text !== '') {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }
    if (res.status >= 400) {
      const message =
        rpcErrorMessage(payload) ?? (typeof payload === 'string' ? payload : `HTTP ${res.status}`);
      return { ok: false, status: res.status, detail: `MCP: ${message}` };
    }
    return { ok: true, status: res.status, body: payload, contentType: res.headers.get('content-type') };
  } finally {
    await server.close();
  }
}
