import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';

/*
 * MCP over Streamable HTTP (docs/mcp.md). The body and answers are JSON-RPC messages, which the MCP
 * SDK reads and writes itself, so they are left open here.
 */

export const mcpPost = defineRoute({
  hide: true,
  method: 'POST',
  path: '/mcp',
  summary: 'MCP over Streamable HTTP (stateless, JSON answers): the same tools as `jig admin mcp`',
  tags: ['mcp'],
  body: z.unknown(),
  responses: {
    200: z.unknown().describe('a JSON-RPC response, or a batch of them'),
    202: z.unknown().describe('nothing: the message was a notification or a response'),
    400: ErrorBodySchema,
    406: ErrorBodySchema,
    413: ErrorBodySchema,
    415: ErrorBodySchema,
  },
});

export const mcpGet = defineRoute({
  hide: true,
  method: 'GET',
  path: '/mcp',
  summary: 'Answers 405: the MCP endpoint is stateless and opens no server-sent event stream',
  tags: ['mcp'],
  responses: { 405: ErrorBodySchema },
});

export const mcpDelete = defineRoute({
  hide: true,
  method: 'DELETE',
  path: '/mcp',
  summary: 'Answers 405: the MCP endpoint is stateless and has no session to end',
  tags: ['mcp'],
  responses: { 405: ErrorBodySchema },
});
