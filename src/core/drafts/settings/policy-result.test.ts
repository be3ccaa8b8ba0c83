import { describe, expect, it } from 'vitest';
import { policyInput, SEEDED } from '../../../../test/helpers/policy-settings.js';
import { keyScope, policyResult } from './policy-result.js';

const seeded = SEEDED.policy ?? '';
/** The seeded policy.yaml with more keys at its end. */
const withExtra = (extra: string): string => `${seeded}\n${extra}`;

/** 1-based line of the first line holding `needle`, and the column just after `key: `. */
function at(text: string, needle: string): { line: number; col: number } {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => !l.trimStart().startsWith('#') && l.includes(needle));
  if (i < 0) throw new Error(`${needle} not in text`);
  const l = lines[i] ?? '';
  return { line: i + 1, col: l.indexOf(':') + 3 };
}

const implementer = (chain: string) => ({
  layer: 'library',
  chain,
  path: 'implementation.main.implement',
  via: 'tasks.implementer',
  value: 120,
});

describe('the seeded policy.yaml', () => {
  const r = policyResult(policyInput(seeded));
  const resolved = r.resolved!;

  it('has no problem, no change and no impact', () => {
    expect(r.problems).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(r.impact).toBeNull();
  });

  it('lists every chain scope that sets a cap itself, under its level', () => {
    expect(resolved.limits.caps.tasks.time_cap_minutes).toEqual({
      default: { value: null, source: null },
      maximum: { value: null, source: null },
      below: ['default', 'merge-request', 'quick-task'].map((c) => ({ ...implementer(c), exceeds: false })),
    });
    expect(
      resolved.limits.caps.tasks.total_time_cap_minutes.below.map((b) => [b.path, b.via, b.value]),
    ).toEqual([
      ['merge_request_feedback.ci.await', 'tasks.await_mr_ci', 90],
      ['merge_request_feedback.automated_review.await', 'tasks.await_automated_review', 30],
      ['external_approval.main.await', 'tasks.await_external_approval', 10080],
      ['post_merge_ci.main.await', 'tasks.await_post_merge_ci', 90],
    ]);
    expect(resolved.limits.caps.work_item.budget_usd).toEqual({
      default: { value: null, source: null },
      maximum: { value: null, source: null },
      below: [],
    });
  });

  it('answers the budgets, with the key that binds an item', () => {
    expect(resolved.limits.work_item_usd).toEqual({
      value: 10,
      source: 'policy',
      binding: { key: 'budget.work_item_usd', value: 10 },
    });
    expect(resolved.limits.daily_usd).toEqual({ value: 50, source: 'policy' });
    expect(resolved.limits.max_attempts).toEqual({
      default: { value: null, source: 'default' },
      maximum: { value: null, source: 'default' },
    });
  });

  it('answers every fix loop of the library with the layer that wins', () => {
    expect(resolved.loops).toEqual({
      default: { attempts: { value: 3, source: 'policy' }, wall_clock_s: { value: 3600, source: 'policy' } },
      entries: [],
      live: [
        {
          key: 'verification.fix_loop',
          chain: 'default',
          node: 'verification',
          attempts: { value: 2, source: 'loop' },
          wall_clock_s: { value: 3600, source: 'default' },
        },
        {
          key: 'verification.fix_loop',
          chain: 'merge-request',
          node: 'verification',
          attempts: { value: 2, source: 'loop' },
          wall_clock_s: { value: 3600, source: 'default' },
        },
        {
          key: 'merge_request_feedback.fix_loop',
          chain: 'merge-request',
          node: 'merge_request_feedback',
          attempts: { value: 3, source: 'loop' },
          wall_clock_s: { value: 3600, source: 'default' },
        },
      ],
    });
  });

  it('answers the other groups, each value with whether the file writes it', () => {
    expect(resolved.escalation).toEqual({
      auto_escalate_stuck: { value: true, source: 'policy' },
      auto_escalate_stuck_cap: { value: 3, source: 'policy' },
      auto_escalate_delay_s: { value: 0, source: 'policy' },
      auto_review_attempts: { value: 1, source: 'policy' },
    });
    expect(resolved.retries).toEqual({
      rate_limit_retries: { value: 5, source: 'policy' },
      forge_cli_timeout_s: { value: 120, source: 'policy' },
      forge_poll_s: { value: 300, source: 'default' },
    });
    expect(resolved.housekeeping).toEqual({
      max_concurrent: { value: 3, source: 'policy' },
      archive_after_days: { value: 30, source: 'policy' },
      record_runs: { value: false, source: 'policy' },
    });
    expect(resolved.findings).toEqual({
      loop_severities: { value: ['critical', 'important'], source: 'policy' },
    });
    // The seeded file only shows a sandbox in a comment: none is set.
    expect(resolved.sandbox).toEqual({ value: null, source: 'default' });
    const unset = { value: null, source: 'default' };
    expect(resolved.harnesses).toEqual({
      defaults: {
        allowed_harnesses: unset,
        allowed_tools: unset,
        escalation_harness: unset,
        escalation_grants: unset,
      },
      maxima: { allowed_harnesses: unset, allowed_tools: unset },
    });
    expect(resolved.other).toEqual({
      max_concurrent: { value: 3, source: 'policy' },
      findings: { loop_severities: ['critical', 'important'] },
      archive: { after_days: 30 },
      triggers: null,
    });
  });
});

it('says `default` for a value the file leaves out', () => {
  const r = policyResult(policyInput('loops: {}\n'));
  expect(r.resolved?.escalation.auto_escalate_delay_s).toEqual({ value: 0, source: 'default' });
  expect(r.resolved?.housekeeping).toEqual({
    max_concurrent: { value: 3, source: 'default' },
    archive_after_days: { value: null, source: 'default' },
    record_runs: { value: false, source: 'default' },
  });
  expect(r.resolved?.findings.loop_severities).toEqual({
    value: ['critical', 'important'],
    source: 'default',
  });
  expect(r.resolved?.loops.default.attempts).toEqual({ value: 3, source: 'default' });
  const jailed = policyResult(policyInput('sandbox: {kind: podman, image: x, resources: {pids: 64}}\n'));
  expect(jailed.resolved?.sandbox).toEqual({
    value: { kind: 'podman', image: 'x', resources: { pids: 64 } },
    source: 'policy',
  });
  // A sandbox the file's checks refuse: its problem is in the sandbox group.
  const bad = policyResult(policyInput('sandbox: {kind: podman}\n'));
  expect(bad.problems.map((p) => [p.path, p.field, p.scope])).toEqual([['sandbox', 'kind', 'sandbox']]);
  expect(r.resolved?.limits.work_item_usd).toEqual({ value: null, source: 'default', binding: null });
});

describe('limits a chain exceeds', () => {
  const text = withExtra(`maxima:
  max_attempts: 1
  work_item:
    budget_usd: 8
  tasks:
    time_cap_minutes: 100
defaults:
  work_item:
    budget_usd: 6
`);
  const r = policyResult(policyInput(text));

  it('marks each scope past the maximum of its level, and answers the levels that set them', () => {
    expect(r.resolved?.limits.caps.tasks.time_cap_minutes).toEqual({
      default: { value: null, source: null },
      maximum: { value: 100, source: 'tasks' },
      below: ['default', 'merge-request', 'quick-task'].map((c) => ({ ...implementer(c), exceeds: true })),
    });
    expect(r.resolved?.limits.caps.work_item.budget_usd).toEqual({
      default: { value: 6, source: 'work_item' },
      maximum: { value: 8, source: 'work_item' },
      below: [],
    });
    // A broader level's cap is not carried down to the narrower ones.
    expect(r.resolved?.limits.caps.nodes.budget_usd.maximum).toEqual({ value: null, source: null });
    expect(r.resolved?.limits.work_item_usd.binding).toEqual({
      key: 'defaults.work_item.budget_usd',
      value: 6,
    });
    expect(r.resolved?.limits.max_attempts.maximum).toEqual({ value: 1, source: 'policy' });
  });

  it('is a problem at the maximum, naming the chain', () => {
    expect(r.problems).toEqual(
      ['default', 'merge-request', 'quick-task'].map((chain) => ({
        path: 'maxima.tasks',
        field: 'time_cap_minutes',
        message: `chain \`${chain}\`: \`implementation.main.implement\` sets time_cap_minutes 120 (from library \`tasks.implementer\`), past maxima.tasks.time_cap_minutes 100`,
        file: 'policy.yaml',
        ...at(text, 'time_cap_minutes: 100'),
        scope: 'limits',
        level: 'tasks',
        chain,
      })),
    );
  });

  it('is a problem at a default the enclosing scope runs under', () => {
    const t = withExtra('defaults:\n  steps:\n    time_cap_minutes: 60\n');
    const quick = policyResult(policyInput(t)).problems.filter((p) => p.chain === 'quick-task');
    expect(quick).toEqual([
      {
        path: 'defaults.steps',
        field: 'time_cap_minutes',
        message:
          'chain `quick-task`: `implementation.main.implement` sets time_cap_minutes 120, past defaults.steps.time_cap_minutes 60 that `implementation.main` runs under',
        file: 'policy.yaml',
        ...at(t, 'time_cap_minutes: 60'),
        scope: 'limits',
        level: 'steps',
        chain: 'quick-task',
      },
    ]);
  });
});

it('lists a scope a chain file sets itself, with no `via`', () => {
  const chain = `policy:
  budget_usd: 9
nodes:
  - id: build
    kind: exec
    policy:
      budget_usd: 4
    tasks:
      - id: make
        kind: subprocess
        argv: [make]
`;
  const r = policyResult(
    policyInput(withExtra('maxima:\n  nodes:\n    budget_usd: 3\n'), { chains: { capped: chain } }),
  );
  expect(r.resolved?.limits.caps.work_item.budget_usd.below).toEqual([
    { layer: 'chain', chain: 'capped', path: 'capped', via: null, value: 9, exceeds: false },
  ]);
  expect(r.resolved?.limits.caps.nodes.budget_usd.below).toEqual([
    { layer: 'chain', chain: 'capped', path: 'build', via: null, value: 4, exceeds: true },
  ]);
  expect(r.problems.map((p) => [p.chain, p.path, p.field, p.message])).toEqual([
    [
      'capped',
      'maxima.nodes',
      'budget_usd',
      'chain `capped`: `build` sets budget_usd 4, past maxima.nodes.budget_usd 3',
    ],
  ]);
});

it('reports a `loops:` key naming no library loop once, with its scope', () => {
  const text = seeded.replace(
    'loops: {}',
    'loops:\n  verification.fix_loop:\n    attempts: 1\n    wall_clock_s: 900\n  nowhere.fix_loop:\n    wall_clock_s: 60',
  );
  const r = policyResult(policyInput(text));
  expect(r.problems).toEqual([
    {
      path: 'loops',
      field: 'nowhere.fix_loop',
      message: '`nowhere.fix_loop` names no fix loop of any chain',
      file: 'policy.yaml',
      line: at(text, 'nowhere.fix_loop').line,
      col: 3,
      scope: 'loops',
    },
  ]);
  expect(r.resolved?.loops.entries).toEqual([
    {
      key: 'verification.fix_loop',
      attempts: { value: 1, source: 'policy' },
      wall_clock_s: { value: 900, source: 'policy' },
      live: true,
    },
    {
      key: 'nowhere.fix_loop',
      attempts: { value: 3, source: 'default' },
      wall_clock_s: { value: 60, source: 'policy' },
      live: false,
    },
  ]);
  // The loop's own max_attempts (library) wins over the entry; a wall clock has no loop layer.
  expect(r.resolved?.loops.live[0]).toEqual({
    key: 'verification.fix_loop',
    chain: 'default',
    node: 'verification',
    attempts: { value: 2, source: 'loop' },
    wall_clock_s: { value: 900, source: 'loops' },
  });
});

it('answers null while policy.yaml does not load, with its problems in their groups', () => {
  const text = seeded
    .replace('max_concurrent: 3', 'max_concurrent: 0')
    .replace('rate_limit_retries: 5', 'rate_limit_retries: -1');
  const r = policyResult(policyInput(text));
  expect(r.resolved).toBeNull();
  expect(r.problems.map((p) => [p.path, p.field, p.scope, p.file])).toEqual([
    ['', 'max_concurrent', 'housekeeping', 'policy.yaml'],
    ['', 'rate_limit_retries', 'retries', 'policy.yaml'],
  ]);
  const caps = policyResult(policyInput(withExtra('maxima:\n  tasks:\n    budget_usd: -2\n')));
  expect(caps.problems.map((p) => [p.path, p.field, p.scope, p.level])).toEqual([
    ['maxima.tasks', 'budget_usd', 'limits', 'tasks'],
  ]);
});

it('answers one change row per dotted key, a maximum reading `no bound`', () => {
  const text = seeded
    .replace('work_item_usd: 10', 'work_item_usd: 8')
    .replace('auto_escalate_stuck_cap: 3', '');
  const r = policyResult(policyInput(`${text}\nmaxima:\n  tasks:\n    budget_usd: 5\n`));
  expect(r.changes).toEqual([
    { path: 'budget.work_item_usd', kind: 'change', summary: '10 -> 8', file: 'policy.yaml' },
    { path: 'maxima.tasks.budget_usd', kind: 'add', summary: 'no bound -> 5', file: 'policy.yaml' },
    { path: 'auto_escalate_stuck_cap', kind: 'remove', summary: '3 -> not set', file: 'policy.yaml' },
  ]);
});

it('puts each key of policy.yaml in its group', () => {
  expect(
    [
      'budget.daily_usd',
      'defaults.tasks.budget_usd',
      'maxima.max_attempts',
      'defaults.allowed_harnesses.0',
      'maxima.allowed_tools',
      'default.attempts',
      'loops.x.fix_loop',
      'auto_review_attempts',
      'forge_cli_timeout_s',
      'archive.after_days',
      'findings.loop_severities',
      'triggers.0.chain',
      'mystery',
      '',
    ].map(keyScope),
  ).toEqual([
    { scope: 'limits' },
    { scope: 'limits', level: 'tasks' },
    { scope: 'limits' },
    { scope: 'harnesses' },
    { scope: 'harnesses' },
    { scope: 'loops' },
    { scope: 'loops' },
    { scope: 'escalation' },
    { scope: 'retries' },
    { scope: 'housekeeping' },
    { scope: 'findings' },
    { scope: 'other' },
    { scope: 'other' },
    null,
  ]);
});
