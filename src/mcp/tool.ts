import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError, type JigClient } from '../client/http.js';
import { getItem } from '../client/items.js';

/**
 * One MCP tool: what a model reads (name, description, input schema), who may call it (the marks
 * of kraft-notes §6), and the client function it runs. Every tool calls the same client function
 * as its CLI verb, so a tool's structured output is the API's payload, as `--json` prints it.
 */

/** Who calls: the item a worker runs inside (its `JIG_WORK_ITEM_ID`), and whether it is an escalation turn. */
export interface Caller {
  item: string | null;
  escalation: boolean;
}

/** What every tool call has to hand: the API client, the caller, and the item of the caller's cwd. */
export interface ToolContext {
  client: JigClient;
  caller: Caller;
  /** The item whose worktree the MCP server runs in (stdio only: an HTTP caller has no cwd here). */
  cwdItem: string | null;
  /** The connected repository of the cwd (stdio only), the default of `repo`. */
  cwdRepo: string | null;
}

/**
 * - `read`: reads; `work_item_id` defaults to the cwd's item, else the worker's own.
 * - `act`: changes an item; `work_item_id` defaults to the cwd's item only.
 * - `worker`: what a worker reports about its own item; defaults like `read`.
 * - `none`: takes no item.
 */
export type ToolKind = 'read' | 'act' | 'worker' | 'none';

/** `worker`: refused when a worker targets its own item; `always`: an escalation turn is refused too. */
export type Refusal = 'worker' | 'always';

/**
 * MCP's tool annotations, every one stated: the protocol assumes a tool that says nothing is
 * destructive and reaches an open world, which would make a client ask about every read.
 * - `readOnly`: changes nothing anywhere.
 * - `destructive`: may replace or end what is there (a setting replaced, an item ended, a node's
 *   work passed over); false when it only adds (a comment, an item, a note).
 * - `idempotent`: calling it again with the same arguments changes nothing more.
 * - `openWorld`: reaches past Jig (a forge or a tracker), not only Jig's own items and repositories.
 */
export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** A tool that only reads Jig. */
export const READS: ToolHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false };

/** A tool that writes: whether it replaces or ends, whether a repeat does nothing more, whether it reaches past Jig. */
export function writes(destructive: boolean, idempotent: boolean, openWorld = false): ToolHints {
  return { readOnly: false, destructive, idempotent, openWorld };
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  kind: ToolKind;
  /** MCP's annotations of it (see ToolHints). */
  hints: ToolHints;
  /** A person decides this: the description tells the model to ask one first. */
  human?: boolean;
  refused?: Refusal;
  /** The tool's own inputs (`work_item_id` is added for item tools). */
  input: z.ZodRawShape;
  /** Set when the route the tool needs is not in this build: the tool answers a tool error. */
  unavailable?: boolean;
  /**
   * The answer as one text block of JSON and nothing else: Claude Code reads its permission prompt
   * tool's answer that way and refuses one with structured content beside it.
   */
  textOnly?: boolean;
  run(ctx: ToolContext, args: Record<string, unknown>, item: string): Promise<unknown>;
}

/** A tool as written: its run gets its own inputs parsed (typed), not the raw arguments. */
export interface ToolDef<S extends z.ZodRawShape> extends Omit<ToolSpec, 'input' | 'run'> {
  input: S;
  run(ctx: ToolContext, args: z.output<z.ZodObject<S>>, item: string): Promise<unknown>;
}

export function defineTool<S extends z.ZodRawShape>(def: ToolDef<S>): ToolSpec {
  const schema = z.object(def.input);
  return { ...def, run: (ctx, args, item) => def.run(ctx, schema.parse(args), item) };
}

/** A refusal or a missing input the tool layer itself answers (an API error carries its own message). */
export class ToolRefusal extends Error {}

export const HUMAN_NOTE =
  'A person decides this: ask the person you work with first and call it only on their explicit say-so.';

export const NOT_AVAILABLE = 'not available in this build: the API route this tool needs does not exist yet';

export const workItemIdInput = {
  work_item_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("the work item's id; defaults to the item whose worktree this runs in"),
};

/** The item a tool acts on: the argument, else the cwd's item, else (reads, worker reports) the worker's own. */
export function targetItem(spec: ToolSpec, ctx: ToolContext, given: unknown): string {
  if (typeof given === 'string' && given !== '') return given;
  if (ctx.cwdItem) return ctx.cwdItem;
  if ((spec.kind === 'read' || spec.kind === 'worker') && ctx.caller.item) return ctx.caller.item;
  throw new ToolRefusal(
    `${spec.name} needs work_item_id: this is not running inside a work item's worktree (list_work_items shows the ids)`,
  );
}

/**
 * The id the API knows the item by: the caller's string may name it another way than the worker's
 * id does, so the comparison is made on what the API answers. An item it cannot find is left as
 * given (the tool's own call then answers the API's error).
 */
async function resolvedId(ctx: ToolContext, item: string): Promise<string> {
  if (item === ctx.caller.item) return item;
  try {
    return (await getItem(ctx.client, item)).id;
  } catch {
    return item;
  }
}

/** A worker may not decide for its own item (the server refuses too, where it checks). */
export async function checkRefusal(spec: ToolSpec, ctx: ToolContext, item: string): Promise<void> {
  if (!spec.refused || !ctx.caller.item) return;
  if (spec.refused === 'worker' && ctx.caller.escalation) return;
  if ((await resolvedId(ctx, item)) !== ctx.caller.item) return;
  const who = ctx.caller.escalation ? 'an escalation turn' : 'a worker';
  throw new ToolRefusal(
    `${spec.name} is refused: ${who} may not use it on its own work item (${item}); ask a person to do it`,
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The API payload as the tool's structured output (MCP wants an object), with its JSON as text. */
export function okResult(payload: unknown, textOnly = false): CallToolResult {
  if (textOnly) return { content: [{ type: 'text', text: JSON.stringify(payload) }] };
  const structured = isRecord(payload) ? payload : { result: payload };
  return {
    content: [{ type: 'text', text: JSON.stringify(payload, null, 2) }],
    structuredContent: structured,
  };
}

/** Any failure as a tool error: the API's own message and code, never a crash of the server. */
export function errorResult(err: unknown): CallToolResult {
  let text: string;
  if (err instanceof ApiError)
    text = `${err.message} (HTTP ${err.status}${err.body.code ? `, ${err.body.code}` : ''})`;
  else if (err instanceof Error) text = err.message;
  else text = String(err);
  return { content: [{ type: 'text', text }], isError: true };
}
