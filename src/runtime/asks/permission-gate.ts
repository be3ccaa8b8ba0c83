import type { ProviderDefinition } from '../../contract/harness/provider.js';
import type { CheckAnswer } from '../../contract/permission-asks.js';
import { decideToolCall } from '../../core/policy/permission-gate.js';
import type { ToolPolicy } from '../../core/policy/ratchet.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import type { PermissionAsks } from './permission-asks.js';
import { own } from '../../core/json/own.js';

/** Jig's names for a CLI's tool (`permission_hook.tool_names`), else the name as it is. */
export function jigToolNames(provider: ProviderDefinition | undefined, tool: string): string[] {
  // The tool name is the CLI's (from the hook's request): `constructor` maps to nothing.
  const mapped = own(provider?.capabilities.permission_hook?.tool_names, tool);
  if (mapped === undefined) return [tool];
  return typeof mapped === 'string' ? [mapped] : [...mapped];
}

/**
 * The permission gate behind Codex's and Cursor's pre-tool hooks: the policy the task's launch
 * was given decides (core/policy/permission-gate.ts); a call the allowed-tools list leaves out on
 * a person's item becomes a permission ask, the same one Claude's prompt tool opens.
 */
export class PermissionGate {
  constructor(
    private readonly d: {
      events: EventLog;
      asks: PermissionAsks;
      launchPolicy: (
        rec: ItemRecord,
        task: string,
      ) => { tools: ToolPolicy | null; providers: Record<string, ProviderDefinition> };
    },
  ) {}

  async check(
    id: string,
    b: {
      task: string;
      cli: string;
      tool_name: string;
      input: Record<string, unknown>;
      tool_use_id?: string | undefined;
    },
    worker: string | undefined,
  ): Promise<CheckAnswer> {
    const rec = await this.d.asks.workerItem(id, worker);
    const { tools, providers } = this.d.launchPolicy(rec, b.task);
    const names = jigToolNames(own(providers, b.cli), b.tool_name);
    if (tools === null)
      return {
        decision: 'none',
        rule: 'unresolved',
        reason: `task ${b.task} is not in this item's chain, so its policy cannot be resolved`,
        tools: names,
        ask: null,
      };
    const answer = decideToolCall(
      { names, input: b.input },
      { ...tools, ask: rec.source === 'human' || rec.source === 'duplicate' },
    );
    if (answer.decision === 'ask') {
      const ask = await this.d.asks.ask(
        id,
        { tool_name: names.join('/'), input: b.input, tool_use_id: b.tool_use_id },
        worker,
      );
      return { ...answer, tools: names, ask };
    }
    if (answer.decision !== 'none') {
      const { decision } = answer;
      const rule = answer.rule === 'no_allowlist' ? undefined : answer.rule;
      await this.d.events.transact(async (uow) => {
        await uow.emit({
          work_item_id: rec.id,
          type: 'permission_decision',
          by: 'jig',
          node: rec.current_node,
          payload: {
            tool_name: names.join('/'),
            decision,
            expired: false,
            ...(rule ? { rule } : {}),
            task: b.task,
          },
        });
      });
    }
    return { ...answer, tools: names, ask: null };
  }
}
