import type { WorkItem, BudgetCap } from '../../contract/items.js';
import { autoGateOn } from '../../core/items/auto-gate.js';
import { own } from '../../core/json/own.js';
import { documentReadable } from '../fs/worktree-document.js';
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
 * The document kind the gate the item waits at shows, once a task reported it and it can be read
 * (the artifact route's own test); null otherwise. Undefined where the walk was not read (a listing
 * leaves it out). The board asks the artifact route only when this names one: a 404 it would
 * answer otherwise shows in the browser's console as an error.
 */
function gateDocument(rec: ItemRecord): string | null | undefined {
  if (rec.walk === null || rec.chain_definition === null) return undefined;
  const waiting = rec.status === 'stopped' && (rec.stop_kind === 'gate' || rec.stop_kind === 'cap');
  const node = rec.chain_definition.nodes[rec.walk.node];
  if (!waiting || node?.kind !== 'gate' || node.id !== rec.current_node || !node.artifact) return null;
  const rel = own(rec.walk.artifacts, node.artifact);
  return rel && rec.worktree_path && documentReadable(rec.worktree_path, rel) ? node.artifact : null;
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
    has_worktree: rec.base_ref !== null,
    ...withGateDocument(gateDocument(rec)),
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

/** The field only where it is known, so a listing's item does not claim the gate shows nothing. */
const withGateDocument = (doc: string | null | undefined): { gate_document?: string | null } =>
  doc === undefined ? {} : { gate_document: doc };
