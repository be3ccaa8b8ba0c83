import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { JigClient } from '../client/http.js';
import { MCP_VIA } from '../contract/via.js';
import { worktreeItem } from '../client/worktree-item.js';
import { repoOfCwd } from './cwd.js';
import { buildMcpServer } from './server.js';
import type { ToolContext } from './tool.js';

/**
 * The context of a stdio server: the agent CLI that started it is the caller, in its own cwd
 * (inside an item's worktree, that item is the default), asked once at start.
 */
export async function stdioContext(env: NodeJS.ProcessEnv = process.env): Promise<ToolContext> {
  const worker = env.JIG_WORK_ITEM_ID?.trim();
  const client = new JigClient({ via: MCP_VIA });
  return {
    client,
    caller: { item: worker ? worker : null, escalation: env.JIG_ESCALATION_TURN === '1' },
    // A server not answering yet is no reason not to serve: the tools report it when called.
    cwdItem: await worktreeItem(client, process.cwd()).catch(() => null),
    cwdRepo: repoOfCwd(),
  };
}

/**
 * Serves MCP over stdin/stdout until the client closes stdin. Nothing else may write to stdout:
 * it carries the protocol.
 */
export async function serveStdio(version: string): Promise<void> {
  const server = buildMcpServer(await stdioContext(), version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
