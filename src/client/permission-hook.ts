import { checkToolCall } from '../contract/routes/work-items/permission-asks.js';
import type { JigClient } from './http.js';
import { denialOf, waitOnAsk } from './permission-asks.js';

export type HookCli = 'codex' | 'cursor';

/** What the hook settles on: allow, deny, or no opinion (the CLI decides as it would alone). */
export interface HookVerdict {
  decision: 'allow' | 'deny' | 'none';
  reason: string;
}

interface HookCall {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The tool call in a hook's stdin: Codex sends Claude's PreToolUse shape (`tool_name`,
 * `tool_input`, `tool_use_id`); Cursor's preToolUse sends `tool_name` and `tool_input` too. Null
 * when it names no tool.
 */
export function readHookCall(raw: string): HookCall | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObj(v)) return null;
  const name = v.tool_name ?? v.toolName;
  if (typeof name !== 'string' || name.trim() === '') return null;
  const input = v.tool_input ?? v.toolInput ?? v.input;
  const id = v.tool_use_id ?? v.toolUseId;
  return {
    tool_name: name,
    input: isObj(input) ? input : {},
    ...(typeof id === 'string' && id !== '' ? { tool_use_id: id } : {}),
  };
}

/**
 * Asks the item's permission gate about one call, and waits for a person when the gate says so.
 * Anything that keeps the gate from answering (no item or task in the environment, an unreadable
 * call, the server unreachable, a refusal) is no opinion, or a denial when the hook fails closed.
 */
export async function gateToolCall(
  connect: () => JigClient,
  o: {
    cli: HookCli;
    raw: string;
    env: NodeJS.ProcessEnv;
    failClosed: boolean;
  },
): Promise<HookVerdict> {
  const fallback = (why: string): HookVerdict =>
    o.failClosed
      ? {
          decision: 'deny',
          reason: `Jig's permission gate could not decide (${why}); denied, as policy limits tools`,
        }
      : { decision: 'none', reason: `Jig's permission gate could not decide (${why})` };
  const item = o.env.JIG_WORK_ITEM_ID?.trim();
  const task = o.env.JIG_TASK_PATH?.trim();
  if (!item || !task) return fallback('JIG_WORK_ITEM_ID and JIG_TASK_PATH are not both set');
  const call = readHookCall(o.raw);
  if (!call) return fallback('the hook input names no tool');
  try {
    const c = connect();
    const answer = await c.call(checkToolCall, {
      params: { id: item },
      body: { task, cli: o.cli, ...call },
    });
    if (answer.decision === 'ask' && answer.ask) {
      const ask = await waitOnAsk(c, item, answer.ask);
      return ask.state === 'allowed'
        ? { decision: 'allow', reason: `a person allowed it (Jig permission ask ${ask.id})` }
        : { decision: 'deny', reason: denialOf(ask) };
    }
    if (answer.decision === 'allow' || answer.decision === 'deny')
      return { decision: answer.decision, reason: `Jig: ${answer.reason}` };
    return answer.rule === 'unresolved'
      ? fallback(answer.reason)
      : { decision: 'none', reason: answer.reason };
  } catch (err) {
    return fallback(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The verdict in the CLI's own output shape. Codex reads Claude's PreToolUse output (checked with
 * Codex 0.169); Cursor's preToolUse output is taken from the reference notes and carries both its
 * `permission` and its message keys. No opinion is an empty object: the CLI goes on as it would.
 */
export function hookOutput(cli: HookCli, v: HookVerdict): string {
  if (v.decision === 'none') return '{}';
  if (cli === 'codex')
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: v.decision,
        permissionDecisionReason: v.reason,
      },
    });
  return JSON.stringify({ permission: v.decision, user_message: v.reason, agent_message: v.reason });
}
