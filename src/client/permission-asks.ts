import { z } from 'zod';
import { ASK_TIMEOUT_S, PromptToolAnswer, type PermissionAsk } from '../contract/permission-asks.js';
import { createAsk, getAskRoute } from '../contract/routes/work-items/permission-asks.js';
import type { JigClient } from './http.js';

const WAIT_S = 20;

/**
 * Asks a person through Jig whether the worker may make this tool call, and waits for the answer
 * (the server denies an ask nobody answers in ASK_TIMEOUT_S). Answers in the shape Claude Code's
 * `--permission-prompt-tool` reads.
 */
export async function askAPerson(
  c: JigClient,
  item: string,
  a: { tool_name: string; input: Record<string, unknown>; tool_use_id?: string | undefined },
): Promise<z.infer<typeof PromptToolAnswer>> {
  let ask: PermissionAsk = await c.call(createAsk, {
    params: { id: item },
    body: {
      tool_name: a.tool_name,
      input: a.input,
      ...(a.tool_use_id ? { tool_use_id: a.tool_use_id } : {}),
    },
  });
  // Bounded: the server expires the ask at its time, so this ends by then even if nobody answers.
  for (let i = 0; ask.state === 'pending' && i < ASK_TIMEOUT_S / WAIT_S + 5; i++)
    ask = await c.call(getAskRoute, { params: { id: item, ask: ask.id }, query: { wait: WAIT_S } });
  if (ask.state === 'allowed') return { behavior: 'allow', updatedInput: a.input };
  const why =
    ask.state === 'expired' || ask.state === 'pending'
      ? `nobody answered within ${ASK_TIMEOUT_S / 60} minutes, so it is denied`
      : `a person denied it${ask.note ? `: ${ask.note}` : ''}`;
  return { behavior: 'deny', message: `Jig permission ask ${ask.id} for ${a.tool_name}: ${why}` };
}
