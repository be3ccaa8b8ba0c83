import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChainOp } from '../../../../src/contract/drafts/chain-ops.js';
import { callRoute, routes, type AnswerOf } from '../../api.js';
import { chainDraftQuery, chainsQuery, draftsQuery, keys } from '../../queries.js';
import { remember } from './merge.js';

/*
 * The chains draft protocol as the editor speaks it (docs/drafts.md): one draft per chain id, read
 * whole after every change, since each answer carries the result object the screen renders from.
 */

export type Draft = AnswerOf<'getDraft'>;
export type Result = Draft['result'];
export type Problem = Result['problems'][number];
export type Published = AnswerOf<'publishDraft'>;
export type DraftList = AnswerOf<'listDrafts'>;
export type { ChainOp };

export const chainFile = (id: string) => `chains/${id}.yaml`;

/** The draft of chain `id`, its published texts remembered for a three-way merge (merge.ts). */
export const chainDraft = (id: string) => chainDraftQuery(id, remember);

/** Starts the draft of a new chain `id`, empty or a copy of chain `from`. */
export async function newChain(id: string, from: string | null): Promise<void> {
  await callRoute(routes.draftOps, {
    params: { area: 'chains', key: id },
    body: { ops: [from ? { op: 'new_chain', from } : { op: 'new_chain' }] },
  });
}

export function useDraft(id: string) {
  return useQuery(chainDraft(id));
}

export function useDraftList() {
  return useQuery(draftsQuery());
}

/** The calls that change a draft; each stores the answer as the draft and refreshes the lists. */
export function useDraftActions(id: string) {
  const client = useQueryClient();
  const key = chainDraft(id).queryKey;
  const params = { area: 'chains', key: id };
  const settle = async (d: Draft | null) => {
    if (d) {
      await remember(d);
      client.setQueryData(key, d);
    } else {
      await client.invalidateQueries({ queryKey: key });
    }
    await client.invalidateQueries({ queryKey: keys.drafts, exact: true });
    await client.invalidateQueries({ queryKey: chainsQuery().queryKey });
  };
  return {
    settle,
    async ops(ops: ChainOp[]) {
      const d = await callRoute(routes.draftOps, { params, body: { ops } });
      await settle(d);
      return d;
    },
    async undo() {
      await settle(await callRoute(routes.undoDraft, { params }));
    },
    async putFile(file: string, text: string) {
      const d = await callRoute(routes.putDraftFile, { params: { ...params, file }, body: { text } });
      await settle(d);
      return d;
    },
    async rebase() {
      const d = await callRoute(routes.rebaseDraft, { params });
      await settle(d);
      return d;
    },
    async publish() {
      const p = await callRoute(routes.publishDraft, { params });
      await settle(null);
      // The library's usage counts and what each component reaches follow the chains.
      await client.invalidateQueries({ queryKey: keys.library });
      return p;
    },
    async discard() {
      await callRoute(routes.discardDraft, { params });
      await settle(null);
    },
    fragment(path: string) {
      return callRoute(routes.getFragment, { params, query: { path } });
    },
  };
}
