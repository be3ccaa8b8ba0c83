import type { ServerResponse } from 'node:http';

/*
 * What the mock model server (mock-model-server.ts) answers, in each API's wire format: Anthropic
 * Messages, OpenAI Responses and Gemini, streamed or not, and their 401/429 errors (Chat
 * Completions: chat.ts).
 */

/** `openai` is the Responses API (Codex); `chat` is Chat Completions (OpenAI-compatible providers). */
export type Api = 'anthropic' | 'openai' | 'chat' | 'gemini';

/** A shell command wrapped the way each API's shell tool takes it. */
export interface Plan {
  kind: 'say' | 'bash' | 'tool' | 'error';
  /** For `tool`: the tool the answer calls by name (an MCP tool such as `mcp__jig__create_work_item`). */
  tool?: { name: string; input: Record<string, unknown> };
  text: string;
  command: string;
  /** Claude Code's `run_in_background` for a `bash` answer. */
  background?: boolean;
  status: number;
  resetAfterS: number | null;
  usage: { input: number; output: number; cache_read: number };
  slowMs: number;
  /** Hold the answer until this file exists (bounded). */
  untilFile: { path: string; maxMs: number } | null;
}

let seq = 0;
const nextId = (prefix: string): string => `${prefix}_mock_${++seq}`;

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const e of events) {
    if (e.event) res.write(`event: ${e.event}\n`);
    res.write(`data: ${JSON.stringify(e.data)}\n\n`);
  }
  res.end();
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Codex names its shell tool differently across versions; answer with whichever it offered. */
function codexShellCall(tools: string[], command: string): { name: string; arguments: string } {
  if (tools.includes('exec_command'))
    return { name: 'exec_command', arguments: JSON.stringify({ cmd: command }) };
  if (tools.includes('shell_command'))
    return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

export function sendError(api: Api, res: ServerResponse, plan: Plan): void {
  const headers: Record<string, string> = {};
  if (plan.resetAfterS !== null) {
    headers['retry-after'] = String(plan.resetAfterS);
    headers['anthropic-ratelimit-unified-status'] = 'rejected';
    headers['anthropic-ratelimit-unified-reset'] = String(Math.floor(Date.now() / 1000) + plan.resetAfterS);
  }
  const auth = plan.status === 401;
  const message = auth ? 'invalid x-api-key' : 'rate limit exceeded';
  if (api === 'anthropic')
    json(
      res,
      plan.status,
      { type: 'error', error: { type: auth ? 'authentication_error' : 'rate_limit_error', message } },
      headers,
    );
  else if (api === 'openai' || api === 'chat')
    json(
      res,
      plan.status,
      {
        error: {
          message: auth ? 'Incorrect API key provided' : 'Rate limit reached',
          type: auth ? 'invalid_request_error' : 'rate_limit_exceeded',
          code: auth ? 'invalid_api_key' : 'rate_limit_exceeded',
        },
      },
      headers,
    );
  else
    json(
      res,
      plan.status,
      {
        error: {
          code: plan.status,
          message: auth
            ? 'API key not valid. Please pass a valid API key.'
            : `Resource has been exhausted (e.g. check quota). Please retry in ${plan.resetAfterS ?? 1}s.`,
          status: auth ? 'UNAUTHENTICATED' : 'RESOURCE_EXHAUSTED',
        },
      },
      headers,
    );
}

/** Anthropic-API CLIs name their shell tool `Bash` (Claude Code) or their own way (Qwen Code). */
const ANTHROPIC_SHELLS = ['Bash', 'run_shell_command', 'bash', 'shell'];

export function anthropic(body: Obj, plan: Plan, res: ServerResponse, tools: string[] = []): void {
  const model = typeof body.model === 'string' ? body.model : 'claude-mock';
  const id = nextId('msg');
  const blocks: Obj[] = [{ type: 'text', text: plan.text }];
  if (plan.kind === 'bash')
    blocks.push({
      type: 'tool_use',
      id: nextId('toolu'),
      name: ANTHROPIC_SHELLS.find((n) => tools.includes(n)) ?? 'Bash',
      input: {
        command: plan.command,
        description: 'run the requested command',
        ...(plan.background === true ? { run_in_background: true } : {}),
      },
    });
  if (plan.kind === 'tool' && plan.tool)
    blocks.push({ type: 'tool_use', id: nextId('toolu'), name: plan.tool.name, input: plan.tool.input });
  const stop = plan.kind === 'bash' || plan.kind === 'tool' ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: plan.usage.input,
    output_tokens: plan.usage.output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: plan.usage.cache_read,
  };
  if (body.stream !== true) {
    json(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: blocks,
      stop_reason: stop,
      stop_sequence: null,
      usage,
    });
    return;
  }
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
  ];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      events.push(
        {
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        },
        {
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } },
        },
      );
    } else {
      events.push(
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
          },
        },
        {
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
          },
        },
      );
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: plan.usage.output },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  sse(res, events);
}

export function openai(body: Obj, plan: Plan, tools: string[], res: ServerResponse): void {
  const id = nextId('resp');
  const items: Obj[] = [
    {
      type: 'message',
      id: nextId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: plan.text, annotations: [] }],
    },
  ];
  if (plan.kind === 'bash') {
    const call = codexShellCall(tools, plan.command);
    items.push({
      type: 'function_call',
      id: nextId('fc'),
      call_id: nextId('call'),
      status: 'completed',
      ...call,
    });
  }
  const model = typeof body.model === 'string' ? body.model : 'mock-model';
  const events: { event: string; data: unknown }[] = [
    {
      event: 'response.created',
      data: {
        type: 'response.created',
        response: { id, object: 'response', model, status: 'in_progress' },
      },
    },
  ];
  items.forEach((item, output_index) => {
    events.push({
      event: 'response.output_item.added',
      data: { type: 'response.output_item.added', output_index, item },
    });
    if (item.type === 'message')
      events.push({
        event: 'response.output_text.delta',
        data: {
          type: 'response.output_text.delta',
          output_index,
          item_id: item.id,
          content_index: 0,
          delta: plan.text,
        },
      });
    events.push({
      event: 'response.output_item.done',
      data: { type: 'response.output_item.done', output_index, item },
    });
  });
  events.push({
    event: 'response.completed',
    data: {
      type: 'response.completed',
      response: {
        id,
        object: 'response',
        model,
        status: 'completed',
        output: items,
        usage: {
          input_tokens: plan.usage.input + plan.usage.cache_read,
          input_tokens_details: { cached_tokens: plan.usage.cache_read },
          output_tokens: plan.usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: plan.usage.input + plan.usage.cache_read + plan.usage.output,
        },
      },
    },
  });
  sse(res, events);
}

export function gemini(model: string, stream: boolean, plan: Plan, res: ServerResponse): void {
  const parts: Obj[] = [{ text: plan.text }];
  if (plan.kind === 'bash')
    parts.push({
      functionCall: {
        name: 'run_shell_command',
        args: { command: plan.command, description: 'run the requested command' },
      },
    });
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: plan.usage.input + plan.usage.cache_read,
      cachedContentTokenCount: plan.usage.cache_read,
      candidatesTokenCount: plan.usage.output,
      totalTokenCount: plan.usage.input + plan.usage.cache_read + plan.usage.output,
    },
    modelVersion: model,
  };
  if (stream) sse(res, [{ data: chunk }]);
  else json(res, 200, chunk);
}
