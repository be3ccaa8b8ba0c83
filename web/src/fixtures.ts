import type { Item } from './api.js';

/** A work item for the board's unit tests: paused and never started unless `over` says otherwise. */
export function anItem(over: Partial<Item> = {}): Item {
  return {
    id: 'aaaaaaaa',
    title: 't',
    description: '',
    status: 'paused',
    display_status: 'paused',
    archived: false,
    chain: 'default',
    repo: '/r',
    branch: 'jig/a',
    base_branch: null,
    source: 'human',
    attachments: {},
    agent_overrides: {},
    node_overrides: {},
    policy_override: {},
    skip_nodes: [],
    auto_gate: true,
    budget_cap: { cap_usd: null, key: null, spent_usd: 0 },
    spent_usd: 0,
    spent_tokens: 0,
    current_node: null,
    gate_request: null,
    stop: null,
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:00.000Z',
    started_at: null,
    ended_at: null,
    archived_at: null,
    ...over,
  };
}
