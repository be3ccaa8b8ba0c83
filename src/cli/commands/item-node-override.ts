import type { WorkItem } from '../../contract/items.js';
import type { ItemDraftAnswer } from '../../contract/items/draft.js';
import { ApiError, type JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import {
  applyItemDraft,
  chainNodes,
  deleteItemDraft,
  getItemDraft,
  patchItem,
  putItemDraft,
} from '../../client/item-setup.js';
import { EXIT_OK, printJson } from '../output.js';
import { BadArgument, describeValues } from './item-setup-args.js';

/*
 * `jig item set-node-override`. Before an item's chain is materialized (it has never started) the
 * override is the item's `node_overrides` entry, set with PATCH. Once the chain is materialized the
 * override goes through the item draft as one `override` op applied at once: the server checks it
 * against the frozen chain and policy (a harness outside `allowed_harnesses`, a node the item has
 * already passed) and records the revision as `chain_revised`, which PATCH would not; a running
 * item takes it at its next node boundary.
 */

export interface NodeOverrideOpts {
  node?: string;
  model?: string;
  effort?: string;
  extraPrompt?: string;
  autoEscalate?: boolean;
  autoEscalateStuck?: boolean;
  autoEscalateDelayS?: string;
  clear?: boolean;
  json?: boolean;
}

type Values = Partial<Record<'model' | 'effort', string>>;

/** The node's settings the engine reads from the item's own override (never a chain value). */
interface Settings {
  extra_prompt?: string;
  auto_escalate?: boolean;
  auto_escalate_stuck?: boolean;
  auto_escalate_delay_s?: number;
}

function settingsOf(opts: NodeOverrideOpts): Settings {
  const out: Settings = {};
  if (opts.extraPrompt !== undefined) {
    if (opts.extraPrompt.trim() === '') throw new BadArgument('--extra-prompt is empty');
    out.extra_prompt = opts.extraPrompt.trim();
  }
  if (opts.autoEscalate !== undefined) out.auto_escalate = opts.autoEscalate;
  if (opts.autoEscalateStuck !== undefined) out.auto_escalate_stuck = opts.autoEscalateStuck;
  if (opts.autoEscalateDelayS !== undefined) {
    const n = Number(opts.autoEscalateDelayS);
    if (!/^\d+$/.test(opts.autoEscalateDelayS.trim()) || n > 86_400)
      throw new BadArgument('--auto-escalate-delay-s takes whole seconds from 0 to 86400');
    out.auto_escalate_delay_s = n;
  }
  return out;
}

/** The object stored under `key` (one node's override), copied; empty when there is none. */
function entryOf(overrides: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = overrides[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v } : {};
}

/** The node overrides with `node`'s entry replaced (dropped when empty). */
function withEntry(
  overrides: Record<string, unknown>,
  node: string,
  entry: Record<string, unknown>,
): Record<string, unknown> {
  const next = { ...overrides };
  if (Object.keys(entry).length > 0) next[node] = entry;
  else delete next[node];
  return next;
}

/** Refuses a node the chain does not have, or a gate (it runs no agent task). */
function checkNode(node: string, nodes: { id: string; kind: string }[] | null, chain: string): void {
  if (!nodes) return;
  const found = nodes.find((n) => n.id === node);
  if (!found)
    throw new BadArgument(
      `--node ${node}: chain ${chain} has no node ${node} (its nodes: ${nodes.map((n) => n.id).join(', ')})`,
    );
  if (found.kind === 'gate') throw new BadArgument(`--node ${node} is a gate: it runs no agent task`);
}

/** The item's draft, or null when its chain is not materialized (any 409: an ended item too, which PATCH then refuses by name). */
async function materializedDraft(c: JigClient, id: string): Promise<ItemDraftAnswer | null> {
  try {
    return await getItemDraft(c, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return null;
    throw err;
  }
}

export async function setNodeOverride(c: JigClient, id: string, opts: NodeOverrideOpts): Promise<number> {
  const node = opts.node;
  if (!node) throw new BadArgument('set-node-override needs --node ID');
  const values: Values = {};
  if (opts.model !== undefined) values.model = opts.model;
  if (opts.effort !== undefined) values.effort = opts.effort;
  for (const [k, v] of Object.entries(values)) if (v.trim() === '') throw new BadArgument(`--${k} is empty`);
  const settings = settingsOf(opts);
  const given = Object.keys(values).length + Object.keys(settings).length;
  if (!opts.clear && given === 0)
    throw new BadArgument(
      'set-node-override needs --model, --effort, --extra-prompt, --[no-]auto-escalate, --[no-]auto-escalate-stuck, --auto-escalate-delay-s or --clear',
    );

  const item = await getItem(c, id);
  const draft = await materializedDraft(c, id);
  if (draft === null) {
    checkNode(node, await chainNodes(c, item.chain), item.chain);
    const entry = { ...(opts.clear ? {} : entryOf(item.node_overrides, node)), ...values, ...settings };
    const res = await patchItem(c, id, { node_overrides: withEntry(item.node_overrides, node, entry) });
    if (opts.json) printJson(res);
    else
      process.stdout.write(
        `node override of ${res.id} ${node}: ${describeValues(entryOf(res.node_overrides, node))}\n`,
      );
    return EXIT_OK;
  }

  checkNode(node, draft.nodes, item.chain);
  if (Object.keys(values).length === 0) {
    // No model or effort: only the item's stored entry changes (--clear drops it first). A value
    // applied through the draft is part of the item's chain now and is changed by setting another.
    const base = opts.clear ? {} : entryOf(item.node_overrides, node);
    const entry = { ...base, ...settings };
    const res =
      Object.keys(settings).length === 0
        ? await dropShadowing(c, item, node, null)
        : await patchItem(c, id, { node_overrides: withEntry(item.node_overrides, node, entry) });
    if (opts.json) printJson(res);
    else
      process.stdout.write(
        `node override of ${item.id} ${node}: ${describeValues(entryOf(res.node_overrides, node))}\n`,
      );
    return EXIT_OK;
  }
  if (draft.ops.length > 0)
    throw new BadArgument(
      `item ${id} has a chain draft of ${draft.ops.length} op(s) not applied; apply or discard it first ` +
        `(POST or DELETE /api/work-items/${id}/draft)`,
    );
  const applied = await applyOverride(c, item, node, values);
  // The item's stored entry outranks the chain's task values: what this sets must not stay shadowed.
  const kept = await dropShadowing(c, item, node, opts.clear ? null : Object.keys(values));
  if (Object.keys(settings).length > 0) {
    const entry = { ...entryOf(kept.node_overrides, node), ...settings };
    await patchItem(c, id, { node_overrides: withEntry(kept.node_overrides, node, entry) });
  }
  if (opts.json) printJson(applied);
  else
    process.stdout.write(
      `node override of ${item.id} ${node}: ${describeValues({ ...values, ...settings })} ` +
        `(applied to the item's chain; a running item takes it at its next node)\n`,
    );
  return EXIT_OK;
}

/** One `override` op stored, checked and applied; anything refused leaves no draft behind. */
async function applyOverride(
  c: JigClient,
  item: WorkItem,
  node: string,
  values: Values,
): Promise<ItemDraftAnswer> {
  const stored = await putItemDraft(c, item.id, [{ op: 'override', path: node, task_config: values }]);
  const refuse = async (message: string): Promise<never> => {
    await discard(c, item.id);
    throw new BadArgument(message);
  };
  if (stored.ops[0]?.passed)
    return refuse(
      `--node ${node}: item ${item.id} has already reached that node (it is at ${item.current_node ?? 'its end'}); ` +
        'a node override acts on nodes still to come',
    );
  const problem = stored.problems.find((p) => p.op === 0);
  if (problem) return refuse(`--node ${node}: ${problem.message}`);
  const outcome = await applyItemDraft(c, item.id);
  if (outcome.ok) return outcome.draft;
  const why = outcome.problems.map((p) => p.message).join('; ');
  return refuse(
    outcome.passed.length > 0
      ? `--node ${node}: item ${item.id} has moved past that node; nothing was changed`
      : `--node ${node}: ${why || outcome.detail}`,
  );
}

async function discard(c: JigClient, id: string): Promise<void> {
  try {
    await deleteItemDraft(c, id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

/**
 * Drops from the item's stored node override the keys now set in its chain (all of it when `keys`
 * is null); the item as it stands after, unchanged when there was nothing to drop.
 */
async function dropShadowing(
  c: JigClient,
  item: WorkItem,
  node: string,
  keys: string[] | null,
): Promise<WorkItem> {
  const entry = entryOf(item.node_overrides, node);
  const kept =
    keys === null ? {} : Object.fromEntries(Object.entries(entry).filter(([k]) => !keys.includes(k)));
  if (Object.keys(kept).length === Object.keys(entry).length) return getItem(c, item.id);
  return patchItem(c, item.id, { node_overrides: withEntry(item.node_overrides, node, kept) });
}
