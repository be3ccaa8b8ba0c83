import { describe, expect, it } from 'vitest';
import type { ModelNode } from '../../../src/contract/config/chain-model.js';
import { agentsOf, planOf } from './chain-nodes.js';
import {
  createBody,
  emptyDraft,
  moreOptionsSet,
  targetOf,
  withNode,
  type Draft,
  type Target,
} from './draft.js';
import type { DryState } from './use-dry-run.js';

/*
 * The composer's draft as the create body the API takes: the dialog's fields as before, and the
 * full page's skips, agent settings, caps and budget, each sent only when set and only for the
 * chain they were chosen on.
 */

const target: Target = { repo: '/src/shop', workspace: undefined, chain: 'default' };
const draft = (over: Partial<Draft> = {}): Draft => ({ ...emptyDraft(), title: 'Add login', ...over });

describe('the composer draft as a create body', () => {
  it('sends only what the dialog asks when nothing more is set', () => {
    expect(createBody(draft({ description: 'Why' }), false, target)).toEqual({
      title: 'Add login',
      description: 'Why',
      repo: '/src/shop',
      start: false,
    });
  });

  it('maps skipped nodes to skip_nodes and agent settings to node_overrides', () => {
    let d = withNode(draft(), 'default', 'spec_approval', { skip: true });
    d = withNode(d, 'default', 'implement', { model: ' opus ', effort: 'high' });
    d = withNode(d, 'default', 'review', { model: '', effort: '' });
    const body = createBody(d, true, target);
    expect(body.skip_nodes).toEqual(['spec_approval']);
    expect(body.node_overrides).toEqual({ implement: { model: 'opus', effort: 'high' } });
    expect(body.start).toBe(true);
  });

  it('drops a skip when it is ticked off again', () => {
    let d = withNode(draft(), 'default', 'spec', { skip: true });
    d = withNode(d, 'default', 'spec', { skip: false });
    expect(createBody(d, false, target).skip_nodes).toBeUndefined();
  });

  it('sends the budget and caps as numbers, and text it cannot read as written', () => {
    let d = draft({ budget: '7.5', model: 'sonnet', autoGate: false, baseBranch: ' develop ' });
    d = withNode(d, 'default', 'implement', {
      caps: { max_attempts: '3', token_budget: '', budget_usd: 'lots' },
    });
    const body = createBody(d, false, target);
    expect(body.budget_usd).toBe(7.5);
    expect(body.policy_override).toEqual({ implement: { max_attempts: 3, budget_usd: 'lots' } });
    expect(body.agent_overrides).toEqual({ model: 'sonnet' });
    expect(body.auto_gate).toBe(false);
    expect(body.base_branch).toBe('develop');
    expect(createBody(draft({ budget: '  ' }), false, target).budget_usd).toBeUndefined();
  });

  it('leaves out node choices made on another chain, and starts afresh when one is changed', () => {
    const d = withNode(draft(), 'default', 'implement', { skip: true, model: 'opus' });
    const other: Target = { ...target, chain: 'quick' };
    const body = createBody(d, false, other);
    expect([body.skip_nodes, body.node_overrides]).toEqual([undefined, undefined]);
    const moved = withNode(d, 'quick', 'build', { skip: true });
    expect(moved.nodes).toEqual({ chain: 'quick', by: { build: { skip: true } } });
  });

  it('names the members only when some are unticked', () => {
    const workspace = {
      name: 'both',
      members: [{ name: 'api' }, { name: 'web' }],
    } as unknown as NonNullable<Target['workspace']>;
    const t = { ...target, repo: 'both', workspace };
    expect(createBody(draft(), false, t).members).toBeUndefined();
    expect(createBody(draft({ unticked: ['web'] }), false, t).members).toEqual(['api']);
  });

  it('says what the page set that the dialog does not show', () => {
    let d = draft({ budget: '5' });
    d = withNode(d, 'default', 'review', { skip: true });
    d = withNode(d, 'default', 'implement', { model: 'opus' });
    expect(moreOptionsSet(d, 'default')).toEqual([
      'skips review',
      'agent settings on implement',
      'budget $5',
    ]);
    expect(moreOptionsSet(d, 'quick')).toEqual(['budget $5']);
  });
});

describe('where a draft goes', () => {
  const repos = {
    repos: [
      { path: '/src/off', enabled: false, default_chain: 'x' },
      { path: '/src/shop', enabled: true, default_chain: 'shop-chain' },
    ],
    workspaces: [{ name: 'both', ready: true, root_path: '/src/off', members: [] }],
    suggested: null,
  } as unknown as Parameters<typeof targetOf>[1];

  it("takes the first enabled repository and its default chain, or a workspace's root's", () => {
    expect(targetOf(draft(), repos)).toMatchObject({ repo: '/src/shop', chain: 'shop-chain' });
    expect(targetOf(draft({ chain: 'quick' }), repos).chain).toBe('quick');
    const ws = targetOf(draft({ repo: 'both' }), repos);
    expect([ws.workspace?.name, ws.chain]).toEqual(['both', 'x']);
  });
});

describe('a node of the new item', () => {
  const asked = { title: 't', repo: 'r', skip_nodes: ['spec'] };
  const dry = (skipped: Record<string, string | null>): DryState => ({
    asked,
    run: {
      dry_run: true,
      would_file: {
        title: 't',
        repo: 'r',
        chain: 'c',
        status: 'paused',
        nodes: Object.entries(skipped).map(([id, s]) => ({ id, kind: 'exec' as const, skipped: s })),
        gates: [],
        budget_cap: { cap_usd: null, key: null, spent_usd: 0 },
        cannot_launch: [],
      },
    },
  });

  it('runs unless skipped by the person or, as the dry run says, by what was filed', () => {
    const d = dry({ spec: 'filed with skip_nodes', plan: 'the plan was attached when filed', build: null });
    expect(planOf('build', true, d)).toEqual({ state: 'skipped', by: 'you' });
    expect(planOf('plan', false, d)).toEqual({
      state: 'skipped',
      by: 'filing',
      reason: 'the plan was attached when filed',
    });
    // Ticked off since that dry run asked: its skip was the person's, not a reason of its own.
    expect(planOf('spec', false, d)).toEqual({ state: 'runs' });
    expect(planOf('build', false, null)).toEqual({ state: 'runs' });
  });

  it("lists the agents a node launches: its steps', its fix loop's, a gate's reviewer", () => {
    const agent = (id: string) => ({ id, path: id, kind: 'agent' as const, prompt: 'p' });
    const exec = {
      id: 'build',
      path: 'build',
      kind: 'exec',
      steps: [
        {
          id: 'main',
          path: 'build.main',
          tasks: [agent('impl'), { id: 't', path: 't', kind: 'builtin', ref: 'test' }],
        },
      ],
      fix_loop: { path: 'build.fix', steps: [{ id: 'fix', path: 'f', tasks: [agent('fixer')] }] },
    } as unknown as ModelNode;
    const gate = {
      id: 'ok',
      path: 'ok',
      kind: 'gate',
      auto_review: agent('reviewer'),
    } as unknown as ModelNode;
    expect(agentsOf(exec).map((a) => a.id)).toEqual(['impl', 'fixer']);
    expect(agentsOf(gate).map((a) => a.id)).toEqual(['reviewer']);
  });
});
