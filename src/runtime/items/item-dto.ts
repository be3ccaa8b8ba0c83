import type { WorkItem, BudgetCap } from '../../contract/items.js';
import { autoGateOn } from '../../core/items/auto-gate.js';
import { rejectTarget } from '../../core/chain/walk-rules.js';
import type { ItemRecord } from '../../store/work-items.js';

/** The item-wide dollar bounds from policy.yaml that an item's cap is compared with. */
export interface PolicyBudget {
  work_item_usd: number | null;
}

/** The lower of the item's own cap and policy's item-wide budget, and which of them it is. */
export function budgetCap(
  rec: Pick<ItemRecord, 'budget_usd' | 'spent_usd'>,
  policy: PolicyBudget,
): BudgetCap {
  const own = rec.budget_usd;
  const pol = policy.work_item_usd;
  if (own === null && pol === null) return { cap_usd: null, key: null, spent_usd: rec.spent_usd };
  if (pol === null || (own !== null && own <= pol))
    return { cap_usd: own, key: 'item', spent_usd: rec.spent_usd };
  return { cap_usd: pol, key: 'policy', spent_usd: rec.spent_usd };
}

function displayStatus(rec: ItemRecord): WorkItem['display_status'] {
  if (rec.archived_at !== null) return 'archived';
  switch (rec.status) {
    case 'completed':
      return 'done';
    case 'blocked':
      // A dependency that will never complete: only a person can let it go on.
      return rec.stop_kind === 'dependency' ? 'needs_you' : 'blocked';
    case 'stopped':
      // Parked on a rate limit, it goes on by itself at the reset: nobody is needed.
      return rec.stop_kind === 'rate_limit' && rec.walk?.parked_until ? 'rate_limited' : 'needs_you';
    default:
      return rec.status;
  }
}

/**
 * While the item waits at a gate: the exec node a reject sends it back to, or null when nothing
 * runs before the gate (a reject is refused, `reject_nowhere`), so a client offers cancel instead.
 */
function gateRejectTo(rec: ItemRecord): { gate_reject_to?: string | null } {
  const chain = rec.chain_definition;
  // A gate whose timeout passed stays open too (a `cap` stop there).
  const open = rec.status === 'stopped' && (rec.stop_kind === 'gate' || rec.stop_kind === 'cap');
  if (!open || chain === null) return {};
  const idx = chain.nodes.findIndex((n) => n.id === rec.current_node);
  if (chain.nodes[idx]?.kind !== 'gate') return {};
  const target = rejectTarget(chain, idx);
  return { gate_reject_to: target === null ? null : (chain.nodes[target]?.id ?? null) };
}

export function toDto(rec: ItemRecord, policy: PolicyBudget): WorkItem {
  return {
    id: rec.id,
    title: rec.title,
    description: rec.description,
    status: rec.status,
    display_status: displayStatus(rec),
    archived: rec.archived_at !== null,
    chain: rec.chain,
    repo: rec.repo,
    ...(rec.workspace ? { workspace: rec.workspace } : {}),
    branch: rec.branch,
    base_branch: rec.base_branch,
    source: rec.source,
    attachments: rec.attachments as WorkItem['attachments'],
    agent_overrides: rec.agent_overrides,
    node_overrides: rec.node_overrides,
    policy_override: rec.policy_override,
    skip_nodes: rec.skip_nodes,
    auto_gate: autoGateOn(rec),
    budget_cap: budgetCap(rec, policy),
    spent_usd: rec.spent_usd,
    spent_tokens: rec.spent_tokens ?? 0,
    current_node: rec.current_node,
    // Open only while the item is stopped at the gate (a gate or a wall clock stop there).
    gate_request:
      rec.status === 'stopped' && (rec.stop_kind === 'gate' || rec.stop_kind === 'cap')
        ? rec.gate_request
        : null,
    ...gateRejectTo(rec),
    stop:
      rec.stop_kind === null
        ? null
        : {
            kind: rec.stop_kind,
            reason: rec.stop_reason ?? '',
            suggested_action: rec.suggested_action,
          },
    created_at: rec.created_at,
    updated_at: rec.updated_at,
    started_at: rec.started_at,
    ended_at: rec.ended_at,
    archived_at: rec.archived_at,
  };
}
