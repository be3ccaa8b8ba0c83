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
  ask = await waitOnAsk(c, item, ask);
  if (ask.state === 'allowed') return { behavior: 'allow', updatedInput: a.input };
  return { behavior: 'deny', message: denialOf(ask) };
}

/** Waits for a person's answer to an ask; the server denies one nobody answers in ASK_TIMEOUT_S. */
export async function waitOnAsk(c: JigClient, item: string, ask: PermissionAsk): Promise<PermissionAsk> {
  // Bounded: the server expires the ask at its time, so this ends by then even if nobody answers.
  for (let i = 0; ask.state === 'pending' && i < ASK_TIMEOUT_S / WAIT_S + 5; i++)
    ask = await c.call(getAskRoute, { params: { id: item, ask: ask.id }, query: { wait: WAIT_S } });
  return ask;
}

/** What the agent reads when an ask did not end allowed. */
export function denialOf(ask: PermissionAsk): string {
  const why =
    ask.state === 'expired' || ask.state === 'pending'
      ? `nobody answered within ${ASK_TIMEOUT_S / 60} minutes, so it is denied`
      : `a person denied it${ask.note ? `: ${ask.note}` : ''}`;
  return `Jig permission ask ${ask.id} for ${ask.tool_name}: ${why}`;
}
