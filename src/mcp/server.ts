import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  checkRefusal,
  errorResult,
  NOT_AVAILABLE,
  okResult,
  targetItem,
  workItemIdInput,
  type ToolContext,
  type ToolSpec,
} from './tool.js';
import { actTools } from './tools-act.js';
import { readTools } from './tools-read.js';
import { setupTools } from './tools-setup.js';
import { workerTools } from './tools-worker.js';

/** Every tool of kraft-notes §6 (31; `set_chain` for 1.x `set_chain_template`; no `abandon`). */
export const tools: readonly ToolSpec[] = [...readTools, ...setupTools, ...actTools, ...workerTools];

/** Calls one tool: the item it targets, the refusal, the client call; every failure a tool error. */
export async function callTool(
  spec: ToolSpec,
  ctx: ToolContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    if (spec.unavailable) throw new Error(`${spec.name} is ${NOT_AVAILABLE}`);
    let item = '';
    if (spec.kind !== 'none') {
      item = targetItem(spec, ctx, args.work_item_id);
      await checkRefusal(spec, ctx, item);
    }
    return okResult(await spec.run(ctx, args, item), spec.textOnly === true);
  } catch (err) {
    return errorResult(err);
  }
}

/**
 * The SDK keeps its tools in a plain object and looks a `tools/call` name up in it, so `constructor`
 * or `toString` found Object.prototype's method and answered "Tool constructor disabled". A table
 * without a prototype makes every name that is no tool "not found". (The field is the SDK's own, set
 * in its constructor and read by its handlers; test/hardening-prototype-names.test.ts notices when
 * a new SDK stops using it.)
 */
function ownToolsOnly(server: McpServer): void {
  if (Reflect.has(server, '_registeredTools')) Reflect.set(server, '_registeredTools', Object.create(null));
}

/**
 * One MCP server with every tool, calling the API through `ctx.client`. A server reused for many
 * callers (http.ts's pool) passes a function that answers the context of the request at hand.
 */
export function buildMcpServer(ctx: ToolContext | (() => ToolContext), version: string): McpServer {
  const context = typeof ctx === 'function' ? ctx : () => ctx;
  const server = new McpServer(
    { name: 'jig', title: 'Jig', version },
    {
      instructions:
        'Jig runs work items through chains of coding agents, commands and human gates. File work with ' +
        'create_work_item (it lands paused), follow it with get_work_item, and ask a person before any tool ' +
        'whose description says a person decides.',
    },
  );
  ownToolsOnly(server);
  for (const spec of tools) {
    const input = spec.kind === 'none' ? spec.input : { ...workItemIdInput, ...spec.input };
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.unavailable ? `${spec.description} (${NOT_AVAILABLE}.)` : spec.description,
        inputSchema: input,
        annotations: {
          title: spec.title,
          readOnlyHint: spec.hints.readOnly,
          destructiveHint: spec.hints.destructive,
          idempotentHint: spec.hints.idempotent,
          openWorldHint: spec.hints.openWorld,
        },
      },
      (args: Record<string, unknown>) => callTool(spec, context(), args),
    );
  }
  // The SDK advertises `tools.listChanged` once a tool is registered, but the list never changes
  // (every tool is registered here, before a transport connects) and `/mcp` is stateless, so
  // it could not send the notification anyway: only what Jig does is advertised.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
