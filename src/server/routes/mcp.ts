import { JigError } from '../../contract/errors.js';
import { mcpDelete, mcpGet, mcpPost } from '../../contract/routes/mcp.js';
import type { Instance } from '../../runtime/instance.js';
import type { McpServers } from '../../mcp/http.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** How this server reaches its own API: a loopback address on a wildcard or loopback bind. */
function selfUrl(inst: Pick<Instance, 'bind' | 'port'>): string {
  let host = inst.bind;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::') host = '[::1]';
  else if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${inst.port}`;
}

/**
 * The MCP SDK (and the Ajv copy it brings) loads with the first `/mcp` request, not at every start:
 * most servers never get one, and it was about a seventh of the code a start compiled.
 */
let mcpHttp: Promise<typeof import('../../mcp/http.js')> | null = null;
const loadMcpHttp = () => (mcpHttp ??= import('../../mcp/http.js'));

/** The transport's refusals, by the statuses the route declares (any other one is a 400). */
function refusalStatus(status: number): 400 | 406 | 413 | 415 {
  return status === 406 || status === 413 || status === 415 ? status : 400;
}

/**
 * `/mcp`: the MCP tools over Streamable HTTP (docs/mcp.md), behind the same perimeter as every
 * route (loopback free; else the MCP token or a session). The tools call this server's own API
 * with the MCP token. A refusal of the MCP transport (406, 415, a malformed JSON-RPC message)
 * answers `{detail, code: bad_request}` with the transport's status, like every other 4xx.
 */
export const mcpRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'bind' | 'mcpToken' | 'port' | 'version'>) => {
    const token = inst.mcpToken;
    let servers: McpServers | null = null;
    r.serve(mcpPost, async (req, reply) => {
      const self = { url: selfUrl(inst), token: token.current() };
      const m = await loadMcpHttp();
      servers ??= new m.McpServers(inst.version);
      const a = await servers.answer(req.headers, req.body, m.requestContext(req.headers, self));
      if (!a.ok) return reply.code(refusalStatus(a.status)).send({ detail: a.detail, code: 'bad_request' });
      // The transport's own JSON, as bytes: Fastify sends a Buffer as it is.
      void reply.header('content-type', a.contentType ?? 'application/json');
      return reply.code(a.status === 202 ? 202 : 200).send(a.text === '' ? undefined : Buffer.from(a.text));
    });
    const refuse = (method: string) => {
      throw new JigError('method_not_allowed', { method, path: '/mcp' }, { allow: 'POST' });
    };
    r.serve(mcpGet, async (_req, reply) => {
      void reply.header('allow', 'POST');
      return refuse('GET');
    });
    r.serve(mcpDelete, async (_req, reply) => {
      void reply.header('allow', 'POST');
      return refuse('DELETE');
    });
  },
);
