import type { AnswerOf, Item } from './api.js';

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
    has_worktree: false,
    stop: null,
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:00.000Z',
    started_at: null,
    ended_at: null,
    archived_at: null,
    ...over,
  };
}

/** A draft answer for the component tests: no draft open, nothing in it, unless `over` says otherwise. */
export function aDraft(
  area: AnswerOf<'getDraft'>['area'],
  over: Partial<AnswerOf<'getDraft'>> = {},
  result: Partial<AnswerOf<'getDraft'>['result']> = {},
): AnswerOf<'draftOps'> {
  return {
    area,
    key: area,
    draft: false,
    files: {},
    base: {},
    published: {},
    updated_at: null,
    ops: [],
    ...over,
    result: {
      model: {},
      resolved: null,
      problems: [],
      sources: null,
      changes: [],
      impact: null,
      warnings: [],
      policy_values: { auto_escalate_delay_s: 0, auto_review_attempts: 0 },
      choices: { ref: [], target: [], inputs: [], grants: [] },
      yaml_error: null,
      ...result,
    },
  };
}

/** What a probe of a plain git checkout answers: tests and setup found, no forge. */
export function aProbe(over: Partial<AnswerOf<'probeRepo'>> = {}): AnswerOf<'probeRepo'> {
  return {
    path: '/src/app',
    is_git: true,
    has_commit: true,
    connected: false,
    name: 'app',
    default_branch: 'main',
    forge: null,
    project: null,
    test_command: { value: 'npm test', reason: 'package.json has a test script' },
    setup_command: { value: 'npm ci', reason: 'package-lock.json' },
    workspace: null,
    default_chain: { value: 'default', reason: 'the seeded chain' },
    ...over,
  };
}

/** A connected repository. */
export function aRepo(over: Partial<AnswerOf<'connectRepo'>> = {}): AnswerOf<'connectRepo'> {
  return {
    path: '/src/app',
    name: 'app',
    enabled: true,
    managed: true,
    default_chain: 'default',
    test_command: 'npm test',
    setup_command: 'npm ci',
    forge: null,
    project: null,
    exists: true,
    open_items: 0,
    needs: [],
    entry: {},
    ...over,
  };
}
