import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { callRoute, routes, type AnswerOf } from '../api.js';
import { applyQuery, areaDraftQuery } from '../queries.js';
import { staleOf, type Stale } from '../settings/stale.js';

/*
 * A settings area's draft (docs/drafts.md "Settings areas": policy, intake, harnesses): the server
 * keeps it, each op answers the whole draft with its result, and the screen shows that answer and
 * never guesses one of its own. Nothing runs differently until Review & publish. One hook serves
 * Settings › Policy and Auto-intake and Templates › Harnesses; DraftBar (draft-bar.tsx) is its bar.
 */

export type Area = 'policy' | 'intake' | 'harnesses' | 'repos';
export type Draft = AnswerOf<'getDraft'>;
export type Op = { op: string } & Record<string, unknown>;

export interface AreaDraftOptions {
  /** What a publish (or an undo, discard, rebase) makes stale besides the draft: the area's own reads. */
  after?: readonly QueryKey[];
  /** Reads of the draft that an op makes stale while in flight (the policy preview). */
  previews?: QueryKey;
}

export function useAreaDraft(area: Area, options: AreaDraftOptions = {}) {
  const client = useQueryClient();
  const query = areaDraftQuery(area);
  const q = useQuery(query);
  const params = { area, key: area };
  /** The refusal of the last op. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The bar's own moves: a refusal of one, or a stale publish, which is a choice to make.
  const [barBusy, setBarBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState<Stale | null>(null);

  /** Applies ops in order, as one undo step; false when refused (`refusal` says why). */
  async function apply(ops: Op[]): Promise<boolean> {
    setBusy(true);
    try {
      // A preview of the draft still in flight would be answered after the op: a value that stops
      // the draft loading would turn it into a 422. Cancelled, it is asked again with the new key.
      if (options.previews) await client.cancelQueries({ queryKey: options.previews });
      const answer = await callRoute(routes.draftOps, { params, body: { ops } });
      client.setQueryData(query.queryKey, answer);
      setRefusal(null);
      return true;
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function refresh() {
    await client.invalidateQueries({ queryKey: query.queryKey });
    for (const k of options.after ?? []) await client.invalidateQueries({ queryKey: k });
    // A published file may wait for a reload: the shell's chip says so.
    await client.invalidateQueries({ queryKey: applyQuery().queryKey });
  }

  /** Runs a move of the bar; true when it went through. */
  async function run(send: () => Promise<unknown>): Promise<boolean> {
    setBarBusy(true);
    setError(null);
    try {
      await send();
      setStale(null);
      await refresh();
      return true;
    } catch (e) {
      const s = staleOf(e);
      setStale(s);
      setError(s ? null : e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBarBusy(false);
    }
  }

  return {
    draft: q.data,
    loadError: q.error,
    refusal,
    busy,
    apply,
    /** A bar move under way. */
    barBusy,
    /** The refusal of the bar's last move (a stale publish is `stale` instead). */
    error,
    stale,
    undo: () => run(() => callRoute(routes.undoDraft, { params })),
    rebase: () => run(() => callRoute(routes.rebaseDraft, { params })),
    discard: () => run(() => callRoute(routes.discardDraft, { params })),
    publish: () => run(() => callRoute(routes.publishDraft, { params })),
  };
}

export type AreaDraft = ReturnType<typeof useAreaDraft>;
