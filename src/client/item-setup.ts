import type { z } from 'zod';
import type { PatchItemBody, WorkItem } from '../contract/items.js';
import type { ItemDraftAnswer, ItemDraftOp } from '../contract/items/draft.js';
import { resolvedChain } from '../contract/routes/templates.js';
import {
  applyItemDraft as apply,
  deleteItemDraft as discard,
  DraftProblemsBody,
  getItemDraft as read,
  PassedOpsBody,
  putItemDraft as put,
} from '../contract/routes/work-items/draft.js';
import { patchItem as patch } from '../contract/routes/work-items/index.js';
import { ApiError, type JigClient } from './http.js';

/** Changes an item's setup (chain, attachments, overrides, policy override) with `PATCH`. */
export const patchItem = (c: JigClient, id: string, body: z.input<typeof PatchItemBody>): Promise<WorkItem> =>
  c.call(patch, { params: { id }, body });

/**
 * The item's chain draft; a 409 (no materialized chain yet, or an ended item) and every other
 * refusal are ApiErrors, so a caller can tell them by code.
 */
export const getItemDraft = (c: JigClient, id: string): Promise<ItemDraftAnswer> =>
  c.call(read, { params: { id } });

export const putItemDraft = (c: JigClient, id: string, ops: ItemDraftOp[]): Promise<ItemDraftAnswer> =>
  c.call(put, { params: { id }, body: { ops } });

export const deleteItemDraft = (c: JigClient, id: string): Promise<null> =>
  c.call(discard, { params: { id } });

/** How an apply ended: applied, or refused with the ops passed (409) or with problems (422). */
export type ApplyOutcome =
  | { ok: true; draft: ItemDraftAnswer }
  | {
      ok: false;
      status: number;
      detail: string;
      passed: number[];
      problems: { op: number; message: string }[];
    };

/** Applies the item's chain draft; the two refusals that carry op indexes are answered, not thrown. */
export async function applyItemDraft(c: JigClient, id: string): Promise<ApplyOutcome> {
  const res = await c.send(apply, { params: { id } });
  if (res.status === 200) return { ok: true, draft: res.body };
  const body = res.body;
  const passedBody = PassedOpsBody.safeParse(body);
  const problemsBody = DraftProblemsBody.safeParse(body);
  const passed = passedBody.success ? passedBody.data.passed : [];
  const problems = problemsBody.success ? problemsBody.data.problems : [];
  if (passed.length === 0 && problems.length === 0) throw new ApiError(res.status, body);
  return { ok: false, status: res.status, detail: body.detail, passed, problems };
}

/**
 * The nodes of a chain as the library resolves it now, `{id, kind}`; null when the chain does not
 * resolve (the item's chain may have been edited since it was filed: the server decides then).
 */
export async function chainNodes(
  c: JigClient,
  chain: string,
): Promise<{ id: string; kind: string }[] | null> {
  const res = await c.send(resolvedChain, { params: { id: chain } });
  if (res.status !== 200) return null;
  const nodes: unknown = res.body.resolved.nodes;
  if (!Array.isArray(nodes)) return null;
  const out: { id: string; kind: string }[] = [];
  for (const entry of nodes) {
    const n: unknown = entry;
    if (!n || typeof n !== 'object' || !('id' in n) || typeof n.id !== 'string') return null;
    out.push({ id: n.id, kind: 'kind' in n && typeof n.kind === 'string' ? n.kind : 'exec' });
  }
  return out;
}
