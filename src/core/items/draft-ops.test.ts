import { describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ItemDraftOp } from '../../contract/items/draft.js';
import type { Walk } from '../../contract/walk.js';
import { seededDraftWorld } from '../../../test/helpers/item-drafts.js';
import { reviseChain, type DraftInput } from './draft-ops.js';

const { chain, library } = seededDraftWorld();
const ids = (c: { nodes: { id: string }[] }) => c.nodes.map((n) => n.id);
const DEFAULT_IDS = [
  'spec',
  'spec_approval',
  'plan',
  'plan_approval',
  'implementation',
  'verification',
  'work_brief',
  'local_review',
];

/** The walk of an item at node index `node` of the default chain. */
const at = (node: number): Walk => ({ v: 1, node, step: 0, rejects: {}, approved: [], phase: 'node' });

const policy = {
  max_concurrent: 3,
  maxima: {
    nodes: { budget_usd: 20 },
    tasks: { budget_usd: 5 },
    max_attempts: 4,
    allowed_harnesses: ['claude', 'codex'],
  },
} as unknown as PolicyFile;

const run = (ops: ItemDraftOp[], more: Partial<DraftInput> = {}) =>
  reviseChain({ chain, walk: at(4), ops, policy, library, ...more });

describe('item draft ops on the seeded default chain', () => {
  it('the seeded chain is the one these tests expect', () => {
    expect(ids(chain)).toEqual(DEFAULT_IDS);
  });

  it('add_node builds an exec node from a library node, a list of library tasks, or library steps', () => {
    const out = run([
      { op: 'add_node', after: 'verification', node: { id: 'verify_again', extends: 'verification' } },
      {
        op: 'add_node',
        after: 'verify_again',
        node: { id: 'brief2', tasks: [{ id: 'w', extends: 'write_work_brief' }] },
      },
      {
        op: 'add_node',
        after: 'implementation',
        node: { id: 'rev', steps: [{ id: 'r', extends: 'review_step' }] },
      },
    ]);
    expect(out.problems).toEqual([]);
    expect(out.passed).toEqual([false, false, false]);
    expect(ids(out.chain)).toEqual([
      'spec',
      'spec_approval',
      'plan',
      'plan_approval',
      'implementation',
      'rev',
      'verification',
      'verify_again',
      'brief2',
      'work_brief',
      'local_review',
    ]);
    const again = out.chain.nodes.find((n) => n.id === 'verify_again');
    expect(again?.kind).toBe('exec');
    if (again?.kind !== 'exec') return;
    expect(again.steps.map((s) => s.path)).toEqual(['verify_again.tests', 'verify_again.review']);
    expect(again.fix_loop?.judge?.path).toBe('verify_again.fix_loop.judge');
    const brief = out.chain.nodes.find((n) => n.id === 'brief2');
    expect(brief?.kind === 'exec' && brief.steps[0]?.tasks[0]?.path).toBe('brief2.main.w');
    const rev = out.chain.nodes.find((n) => n.id === 'rev');
    expect(rev?.kind === 'exec' && rev.steps[0]?.tasks[0]?.path).toBe('rev.r.code_review');
    expect(out.added.map((a) => [a.op, a.node.id, a.harnesses])).toEqual([
      [0, 'verify_again', ['claude']],
      [1, 'brief2', ['claude']],
      [2, 'rev', ['claude']],
    ]);
    expect(out.revised).toEqual({ added: ['verify_again', 'brief2', 'rev'], removed: [], overridden: [] });
    // The item's own chain is left as it was.
    expect(ids(chain)).toEqual(DEFAULT_IDS);
  });

  it('add_node: a node the library cannot build, a gate, a taken id, an unknown `after`, a harness outside policy', () => {
    const out = run([
      { op: 'add_node', after: 'verification', node: { id: 'x', extends: 'no_such_node' } },
      {
        op: 'add_node',
        after: 'verification',
        node: { id: 'spec', tasks: [{ id: 'a', extends: 'spec_author' }] },
      },
      { op: 'add_node', after: 'nowhere', node: { id: 'y', tasks: [{ id: 'a', extends: 'spec_author' }] } },
      {
        op: 'add_node',
        after: 'verification',
        node: { id: 'z', tasks: [{ id: 'a', extends: 'no_such_task' }] },
      },
    ]);
    expect(out.problems.map((p) => p.op)).toEqual([0, 1, 2, 3]);
    expect(out.problems[0]?.message).toBe(
      'the library cannot build node `x`: x.extends: extends `no_such_node`: no library node has that name',
    );
    expect(out.problems[1]?.message).toBe("a node `spec` is already in the item's chain");
    expect(out.problems[2]?.message).toBe("no node `nowhere` in the item's chain to follow");
    expect(out.problems[3]?.message).toBe(
      'the library cannot build node `z`: z.main.a.extends: extends `no_such_task`: no library task has that name',
    );
    expect(ids(out.chain)).toEqual(DEFAULT_IDS);
    expect(out.added).toEqual([]);

    const strict = run(
      [{ op: 'add_node', after: 'verification', node: { id: 'v2', extends: 'verification' } }],
      { policy: { ...policy, maxima: { allowed_harnesses: ['codex'] } } as unknown as PolicyFile },
    );
    expect(strict.problems).toEqual([
      { op: 0, message: 'harness `claude` of `v2.review.code_review` is outside allowed_harnesses (codex)' },
    ]);
  });

  it('remove_node refuses a gate, a node not skippable, and a node a gate rejects to', () => {
    const out = run([
      { op: 'remove_node', node: 'local_review' },
      { op: 'remove_node', node: 'work_brief' },
      { op: 'remove_node', node: 'nope' },
    ]);
    expect(out.problems).toEqual([
      { op: 0, message: '`local_review` is a gate; a gate cannot be removed' },
      { op: 2, message: "no node `nope` in the item's chain" },
    ]);
    expect(ids(out.chain)).toEqual(DEFAULT_IDS.filter((n) => n !== 'work_brief'));
    expect(out.revised.removed).toEqual(['work_brief']);

    const early = reviseChain({
      chain,
      walk: at(0),
      ops: [{ op: 'remove_node', node: 'plan' }],
      policy,
      library,
    });
    expect(early.problems).toEqual([{ op: 0, message: 'gate `plan_approval` rejects to `plan`' }]);

    const pinned = structuredClone(chain);
    const wb = pinned.nodes.find((n) => n.id === 'work_brief')!;
    wb.skippable = false;
    const refused = run([{ op: 'remove_node', node: 'work_brief' }], { chain: pinned });
    expect(refused.problems).toEqual([{ op: 0, message: '`work_brief` is not skippable' }]);
  });

  it('passed: an op on a node the item reached; add_node only once the walk went past the node it follows', () => {
    const out = run([
      { op: 'add_node', after: 'implementation', node: { id: 'n1', extends: 'verification' } },
      { op: 'add_node', after: 'plan', node: { id: 'n2', extends: 'verification' } },
      { op: 'override', path: 'implementation.main.implement', task_config: { model: 'opus' } },
      { op: 'remove_node', node: 'plan' },
      { op: 'skip', path: 'verification.review' },
      { op: 'skip', path: 'spec.main.author' },
    ]);
    expect(out.passed).toEqual([false, true, true, true, false, true]);
    // Passed ops are neither applied nor checked.
    expect(out.problems).toEqual([]);
    expect(ids(out.chain)).toEqual([...DEFAULT_IDS.slice(0, 5), 'n1', ...DEFAULT_IDS.slice(5)]);
    expect(out.skips).toEqual([{ op: 4, path: 'verification.review', node: 'verification' }]);

    // Before the first start nothing is reached.
    const fresh = run([{ op: 'remove_node', node: 'work_brief' }], { walk: null });
    expect(fresh.passed).toEqual([false]);
  });

  it('override sets model, effort and harness on the agent tasks under a path, and tightens caps', () => {
    const out = run([
      { op: 'override', path: 'verification', task_config: { model: 'opus', harness: 'codex' } },
      { op: 'override', path: 'verification', policy: { budget_usd: 15, max_attempts: 3 } },
      {
        op: 'override',
        path: 'work_brief.main.author',
        policy: { budget_usd: 4 },
        task_config: { effort: 'high' },
      },
    ]);
    expect(out.problems).toEqual([]);
    const v = out.chain.nodes.find((n) => n.id === 'verification');
    if (v?.kind !== 'exec') throw new Error('verification is not exec');
    expect(v.policy).toMatchObject({ budget_usd: 15, max_attempts: 3 });
    const review = v.steps[1]?.tasks[0];
    expect(review).toMatchObject({
      path: 'verification.review.code_review',
      model: 'opus',
      harness: 'codex',
    });
    expect(review && 'profile' in review).toBe(false);
    // The subprocess/builtin verify task is no agent: untouched.
    expect(v.steps[0]?.tasks[0]).not.toHaveProperty('model');
    expect(out.revised.overridden).toEqual(['verification', 'verification', 'work_brief.main.author']);
  });

  it('override problems: structural fields, bad values, caps past the maxima, a harness outside policy', () => {
    const out = run([
      { op: 'override', path: 'verification', task_config: { prompt: 'do better' } },
      { op: 'override', path: 'verification', policy: { sandbox: 'none' } },
      { op: 'override', path: 'verification', policy: { budget_usd: 25 } },
      { op: 'override', path: 'verification.review.code_review', policy: { budget_usd: 6 } },
      { op: 'override', path: 'verification', policy: { max_attempts: 9 } },
      { op: 'override', path: 'verification.review', policy: { max_attempts: 2 } },
      { op: 'override', path: 'verification', task_config: { harness: 'gemini' } },
      { op: 'override', path: 'local_review', task_config: { model: 'opus' } },
      { op: 'override', path: 'verification.nothing', policy: { budget_usd: 1 } },
      { op: 'override', path: 'verification', policy: { budget_usd: -1 } },
      { op: 'override', path: 'verification.tests.verify', task_config: { model: 'opus' } },
      { op: 'override', path: 'verification' },
      { op: 'override', path: 'verification', task_config: { model: 'not a model' } },
    ]);
    expect(out.problems).toEqual([
      {
        op: 0,
        message:
          'task_config.prompt is not something an override may set: only model, effort, harness (no structural field)',
      },
      {
        op: 1,
        message:
          'policy.sandbox is not something an override may set: only max_attempts, timeout_minutes, time_cap_minutes, total_time_cap_minutes, token_budget, budget_usd',
      },
      { op: 2, message: 'budget_usd 25 exceeds maxima.nodes.budget_usd (20)' },
      { op: 3, message: 'budget_usd 6 exceeds maxima.tasks.budget_usd (5)' },
      { op: 4, message: 'max_attempts 9 exceeds maxima.max_attempts (4)' },
      { op: 5, message: 'max_attempts is a fix-loop limit of an exec node; `verification.review` is a step' },
      {
        op: 6,
        message:
          'task_config.harness `gemini` is outside allowed_harnesses of `verification.review.code_review` (claude, codex)',
      },
      { op: 7, message: '`local_review` is a gate: an override sets an exec node, step or task' },
      { op: 8, message: "`verification.nothing` names nothing in the item's chain" },
      { op: 9, message: 'policy.budget_usd must be a positive number' },
      { op: 10, message: 'no agent task at or under `verification.tests.verify` takes task_config' },
      { op: 11, message: 'an override sets task_config, policy or both' },
      { op: 12, message: 'task_config.model "not a model" is not a model id' },
    ]);
    expect(out.chain).toEqual(chain);
  });

  it('an enclosing scope bounds a cap: a task may not exceed its node', () => {
    const out = run([
      { op: 'override', path: 'verification', policy: { budget_usd: 3 } },
      { op: 'override', path: 'verification.review.code_review', policy: { budget_usd: 4 } },
    ]);
    expect(out.problems).toEqual([
      { op: 1, message: "budget_usd 4 exceeds `verification`'s budget_usd (3)" },
    ]);
  });

  it('skip names a step or task of a node’s own steps, skippable all the way up', () => {
    const pinned = structuredClone(chain);
    const v = pinned.nodes.find((n) => n.id === 'verification');
    if (v?.kind !== 'exec') throw new Error('verification is not exec');
    v.steps[0]!.skippable = false;
    const out = run(
      [
        { op: 'skip', path: 'verification.review.code_review' },
        { op: 'skip', path: 'verification.review' },
        { op: 'skip', path: 'verification.tests.verify' },
        { op: 'skip', path: 'verification' },
        { op: 'skip', path: 'verification.fix_loop.main.repair' },
        { op: 'skip', path: 'verification.zzz' },
      ],
      { chain: pinned },
    );
    expect(out.problems).toEqual([
      {
        op: 2,
        message: '`verification.tests.verify` is inside `verification.tests`, which is not skippable',
      },
      { op: 3, message: '`verification` is a node: use remove_node' },
      {
        op: 4,
        message:
          "`verification.fix_loop.main.repair` is a handler's or slot's; only a step or task of a node's own steps can be skipped",
      },
      { op: 5, message: "`verification.zzz` names nothing in the item's chain" },
    ]);
    expect(out.skips).toEqual([
      { op: 0, path: 'verification.review.code_review', node: 'verification' },
      { op: 1, path: 'verification.review', node: 'verification' },
    ]);
    // A draft of only skips revises no chain.
    expect(out.revised).toEqual({ added: [], removed: [], overridden: [] });
    expect(out.chain).toEqual(pinned);
  });

  it('ops apply in order: a later op sees what an earlier one did', () => {
    const out = run([
      {
        op: 'add_node',
        after: 'verification',
        node: { id: 'extra', tasks: [{ id: 'w', extends: 'write_work_brief' }] },
      },
      { op: 'override', path: 'extra.main.w', task_config: { model: 'opus' } },
      { op: 'skip', path: 'extra.main.w' },
      { op: 'remove_node', node: 'extra' },
      { op: 'override', path: 'extra.main.w', task_config: { model: 'sonnet' } },
    ]);
    expect(out.problems).toEqual([{ op: 4, message: "`extra.main.w` names nothing in the item's chain" }]);
    expect(ids(out.chain)).toEqual(DEFAULT_IDS);
    expect(out.revised).toEqual({ added: ['extra'], removed: ['extra'], overridden: ['extra.main.w'] });
  });
});
