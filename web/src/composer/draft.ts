import type { z } from 'zod';
import type { ScopePolicy } from '../../../src/contract/config/scope-policy.js';
import type { CreateItemBody } from '../../../src/contract/items.js';
import type { ReposAnswer } from '../../../src/contract/repos.js';

/*
 * What a person is filing, as the composer dialog and the full page (/work-items/new) both edit it,
 * and the create body it becomes. One shape for both, so "More options" and back lose nothing.
 * Numbers stay the text typed: the server's checks name a field a person got wrong, so a value the
 * board cannot read is sent as written rather than dropped in silence.
 */

export type Body = z.input<typeof CreateItemBody>;
type Repos = z.infer<typeof ReposAnswer>;
export type Workspace = Repos['workspaces'][number];

/** The caps an item may set for one node (its `policy_override`), as the API accepts them. */
export const NODE_CAPS = [
  'budget_usd',
  'token_budget',
  'time_cap_minutes',
  'total_time_cap_minutes',
  'max_attempts',
  'timeout_minutes',
] as const satisfies readonly (keyof ScopePolicy)[];
export type NodeCap = (typeof NODE_CAPS)[number];

/** One node's choices: pass it without running, its agents' model and effort, its caps. */
export interface NodeChoice {
  skip?: boolean;
  model?: string;
  effort?: string;
  caps?: Partial<Record<NodeCap, string>>;
}

export interface Draft {
  title: string;
  description: string;
  /** A repository's path or a workspace's name; '' = the first enabled repository. */
  repo: string;
  /** The members left out of a workspace item (every member runs unless unticked). */
  unticked: string[];
  /** '' = the repository's default chain. */
  chain: string;
  spec: string | null;
  plan: string | null;
  /** Items it comes after (their ids). */
  after: string[];
  /** The item's own dollar cap. */
  budget: string;
  /** Every agent's model and effort (`agent_overrides`); a node's own choice wins. */
  model: string;
  effort: string;
  /** null: the server's default (on for what a person files). */
  autoGate: boolean | null;
  baseBranch: string;
  /** Per-node choices, for the chain they were made on: another chain's nodes are not these. */
  nodes: { chain: string; by: Record<string, NodeChoice> };
}

export const emptyDraft = (): Draft => ({
  title: '',
  description: '',
  repo: '',
  unticked: [],
  chain: '',
  spec: null,
  plan: null,
  after: [],
  budget: '',
  model: '',
  effort: '',
  autoGate: null,
  baseBranch: '',
  nodes: { chain: '', by: {} },
});

/** Where the item would go: the repository or workspace it names, and the chain it would run. */
export interface Target {
  repo: string;
  workspace: Workspace | undefined;
  chain: string;
}

/** The draft's repository (else the first enabled one) and its chain (else the repository's default). */
export function targetOf(d: Draft, repos: Repos | undefined): Target {
  const enabled = (repos?.repos ?? []).filter((r) => r.enabled);
  const repo = d.repo || enabled[0]?.path || '';
  const workspace = (repos?.workspaces ?? []).find((w) => w.ready && w.name === repo);
  const root = workspace ? workspace.root_path : repo;
  const fallback = (repos?.repos ?? []).find((r) => r.path === root)?.default_chain ?? '';
  return { repo, workspace, chain: d.chain || fallback };
}

const NONE: Readonly<Record<string, NodeChoice>> = Object.freeze({});

/** The node choices that hold for `chain` (none when they were made on another). */
export function choicesFor(d: Draft, chain: string): Readonly<Record<string, NodeChoice>> {
  return d.nodes.chain === chain ? d.nodes.by : NONE;
}

/** The draft with one node's choice changed; choices made on another chain are left behind. */
export function withNode(d: Draft, chain: string, node: string, patch: Partial<NodeChoice>): Draft {
  const by = choicesFor(d, chain);
  return { ...d, nodes: { chain, by: { ...by, [node]: { ...by[node], ...patch } } } };
}

const filled = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** A number typed, as a number when it reads as one; else as written, for the server to refuse. */
const numeric = (s: string): number | string => {
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : s;
};

/** `{model, effort}` with only what was typed; null when nothing was. */
function agentOverride(model: string | undefined, effort: string | undefined) {
  const out: Record<string, string> = {};
  if (filled(model)) out.model = model.trim();
  if (filled(effort)) out.effort = effort.trim();
  return Object.keys(out).length > 0 ? out : null;
}

/** The create body as the API takes it; each optional field only when the draft sets it. */
export function createBody(d: Draft, start: boolean, t: Target): Body {
  const attachments: Record<string, { text: string }> = {};
  if (d.spec?.trim()) attachments.spec = { text: d.spec };
  if (d.plan?.trim()) attachments.plan = { text: d.plan };
  const ws = t.workspace;
  const members = ws?.members.map((m) => m.name).filter((m) => !d.unticked.includes(m)) ?? [];
  const choices = Object.entries(choicesFor(d, t.chain));
  const skip = choices.filter(([, c]) => c.skip).map(([id]) => id);
  const nodeOverrides: Record<string, Record<string, string>> = {};
  const policy: Record<string, Record<string, number | string>> = {};
  for (const [id, c] of choices) {
    const o = agentOverride(c.model, c.effort);
    if (o) nodeOverrides[id] = o;
    const caps = Object.entries(c.caps ?? {}).filter(([, v]) => filled(v));
    if (caps.length > 0) policy[id] = Object.fromEntries(caps.map(([k, v]) => [k, numeric(v)]));
  }
  const agent = agentOverride(d.model, d.effort);
  return {
    title: d.title,
    description: d.description,
    repo: t.repo,
    ...(ws && d.unticked.length > 0 ? { members } : {}),
    ...(d.chain ? { chain: d.chain } : {}),
    start,
    ...(Object.keys(attachments).length > 0 ? { attachments } : {}),
    ...(d.after.length > 0 ? { after: d.after } : {}),
    ...(skip.length > 0 ? { skip_nodes: skip } : {}),
    ...(agent ? { agent_overrides: agent } : {}),
    ...(Object.keys(nodeOverrides).length > 0 ? { node_overrides: nodeOverrides } : {}),
    ...(Object.keys(policy).length > 0 ? { policy_override: policy } : {}),
    // The API takes a number; text it cannot read goes as written, so its refusal names the field.
    ...(filled(d.budget) ? { budget_usd: numeric(d.budget) as number } : {}),
    ...(d.autoGate !== null ? { auto_gate: d.autoGate } : {}),
    ...(filled(d.baseBranch) ? { base_branch: d.baseBranch.trim() } : {}),
  };
}

/**
 * What the full page set that the dialog does not show, one phrase each ("skips review", "model
 * on build", "budget $5"): the dialog says so, since it files them too.
 */
export function moreOptionsSet(d: Draft, chain: string): string[] {
  const out: string[] = [];
  const choices = Object.entries(choicesFor(d, chain));
  const skipped = choices.filter(([, c]) => c.skip).map(([id]) => id);
  if (skipped.length > 0) out.push(`skips ${skipped.join(', ')}`);
  for (const [id, c] of choices) {
    if (agentOverride(c.model, c.effort)) out.push(`agent settings on ${id}`);
    if (Object.values(c.caps ?? {}).some(filled)) out.push(`caps on ${id}`);
  }
  if (agentOverride(d.model, d.effort)) out.push('agent settings for every node');
  if (filled(d.budget)) out.push(`budget $${d.budget.trim()}`);
  if (d.autoGate !== null) out.push(d.autoGate ? 'reviewer agent first' : 'no reviewer agent');
  if (filled(d.baseBranch)) out.push(`base ${d.baseBranch.trim()}`);
  return out;
}
