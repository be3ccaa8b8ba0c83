import type { Insertable } from 'kysely';
import type { WorkItemsTable } from '../../src/store/schema.js';

/**
 * Bare `running` work item rows for store-level tests and benchmarks that need items to claim
 * without filing them through the API (no chain, no worktree).
 */
export function runningItemRows(
  ids: readonly string[],
  at = new Date().toISOString(),
): Insertable<WorkItemsTable>[] {
  return ids.map((id) => ({
    id,
    title: id,
    description: '',
    status: 'running',
    chain: 'bench',
    repo: '/bench',
    branch: `jig/${id}`,
    source: 'human',
    attachments: '[]',
    agent_overrides: '{}',
    node_overrides: '{}',
    policy_override: '{}',
    spent_usd: 0,
    spent_tokens: 0,
    skip_nodes: '[]',
    run_epoch: 0,
    created_at: at,
    updated_at: at,
    started_at: at,
  }));
}
