import type { ServerResponse } from 'node:http';
import { isObj, json, type Obj, type Plan } from './answers.js';

/*
 * OpenAI Chat Completions (`POST /v1/chat/completions`), the API most other agent CLIs speak to a
 * model they are pointed at (OpenAI-compatible providers): streamed as `chat.completion.chunk`
 * events ending in `data: [DONE]`, or whole.
 */

/** Shell tools by the names agent CLIs give them; each takes `{command}`. */
const SHELL_TOOLS = ['bash', 'Bash', 'run_shell_command', 'shell', 'Execute', 'execute', 'exec_command'];

let seq = 0;
const nextId = (prefix: string): string => `${prefix}_mock_${++seq}`;

/** The function names a Chat Completions request offers. */
export function chatToolNames(body: Obj): string[] {
  const tools: unknown[] = Array.isArray(body.tools) ? body.tools : [];
  const names: string[] = [];
  for (const t of tools)
    if (isObj(t) && isObj(t.function) && typeof t.function.name === 'string') names.push(t.function.name);
  return names;
}

function toolCall(plan: Plan, tools: string[]): { name: string; arguments: string } | null {
  if (plan.kind === 'tool' && plan.tool)
    return { name: plan.tool.name, arguments: JSON.stringify(plan.tool.input) };
  if (plan.kind !== 'bash') return null;
  const name = SHELL_TOOLS.find((n) => tools.includes(n)) ?? 'bash';
  const args: Record<string, string> = { command: plan.command, description: 'run the requested command' };
  // Factory Droid's Execute refuses a call that does not rate its own risk.
  if (name === 'Execute')
    Object.assign(args, { riskLevel: 'low', riskLevelReason: 'writes one file in the repository' });
  return { name, arguments: JSON.stringify(args) };
}

export function chat(body: Obj, plan: Plan, tools: string[], res: ServerResponse): void {
  const id = nextId('chatcmpl');
  const model = typeof body.model === 'string' ? body.model : 'mock-model';
  const created = Math.floor(Date.now() / 1000);
  const call = toolCall(plan, tools);
  const finish = call ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: plan.usage.input + plan.usage.cache_read,
    completion_tokens: plan.usage.output,
    total_tokens: plan.usage.input + plan.usage.cache_read + plan.usage.output,
    prompt_tokens_details: { cached_tokens: plan.usage.cache_read },
  };
  const calls = call ? [{ id: nextId('call'), type: 'function', function: call }] : undefined;
  if (body.stream !== true) {
    json(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: plan.text, ...(calls ? { tool_calls: calls } : {}) },
          finish_reason: finish,
        },
      ],
      usage,
    });
    return;
  }
  const chunk = (delta: Obj, finishReason: string | null, extra: Obj = {}): Obj => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });
  const chunks: Obj[] = [
    chunk({ role: 'assistant', content: '' }, null),
    chunk({ content: plan.text }, null),
  ];
  if (calls)
    chunks.push(
      chunk({ tool_calls: calls.map((c, index) => ({ index, ...c, function: { ...c.function } })) }, null),
    );
  // A client that asked for `stream_options.include_usage` gets OpenAI's usage-only chunk after the
  // last one; others get usage on the last chunk with choices, as many compatible servers send it.
  const options = isObj(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true)
    chunks.push(chunk({}, finish), {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [],
      usage,
    });
  else chunks.push(chunk({}, finish, { usage }));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
  res.end('data: [DONE]\n\n');
}
