import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChainOp } from '../../../../src/contract/drafts/chain-ops.js';
import type {
  DraftAnswer,
  DraftListAnswer,
  FragmentAnswer,
  OpsAnswer,
  PublishAnswer,
} from '../../../../src/contract/drafts/answers.js';
import { del, get, post, put } from '../../api.js';
import { remember } from './merge.js';

/*
 * The chains draft protocol as the editor speaks it (docs/drafts.md): one draft per chain id, read
 * whole after every change, since each answer carries the result object the screen renders from.
 */

export type Draft = z.infer<typeof DraftAnswer>;
export type Result = Draft['result'];
export type Problem = Result['problems'][number];
export type Published = z.infer<typeof PublishAnswer>;
export type DraftList = z.infer<typeof DraftListAnswer>;
export type { ChainOp };

export const draftPath = (id: string) => `/api/drafts/chains/${encodeURIComponent(id)}`;
export const chainFile = (id: string) => `chains/${id}.yaml`;
export const draftKey = (id: string) => ['drafts', 'chains', id] as const;

export function useDraft(id: string) {
  return useQuery({
    queryKey: draftKey(id),
    queryFn: async () => {
      const d = await get<Draft>(draftPath(id));
      await remember(d);
      return d;
    },
  });
}

export function useDraftList() {
  return useQuery({ queryKey: ['drafts'], queryFn: () => get<DraftList>('/api/drafts') });
}

/** The calls that change a draft; each stores the answer as the draft and refreshes the lists. */
export function useDraftActions(id: string) {
  const client = useQueryClient();
  const settle = async (d: Draft | null) => {
    if (d) {
      await remember(d);
      client.setQueryData(draftKey(id), d);
    } else {
      await client.invalidateQueries({ queryKey: draftKey(id) });
    }
    await client.invalidateQueries({ queryKey: ['drafts'], exact: true });
    await client.invalidateQueries({ queryKey: ['chains'] });
  };
  return {
    settle,
    async ops(ops: ChainOp[]) {
      const d = await post<z.infer<typeof OpsAnswer>>(`${draftPath(id)}/ops`, { ops });
      await settle(d);
      return d;
    },
    async undo() {
      await settle(await post<Draft>(`${draftPath(id)}/undo`));
    },
    async putFile(file: string, text: string) {
      const d = await put<Draft>(`${draftPath(id)}/files/${encodeURIComponent(file)}`, { text });
      await settle(d);
      return d;
    },
    async rebase() {
      const d = await post<Draft>(`${draftPath(id)}/rebase`);
      await settle(d);
      return d;
    },
    async publish() {
      const p = await post<Published>(`${draftPath(id)}/publish`);
      await settle(null);
      // The library's usage counts and what each component reaches follow the chains.
      await client.invalidateQueries({ queryKey: ['library'] });
      return p;
    },
    async discard() {
      await del<null>(draftPath(id));
      await settle(null);
    },
    fragment(path: string) {
      return get<z.infer<typeof FragmentAnswer>>(
        `${draftPath(id)}/fragment?path=${encodeURIComponent(path)}`,
      );
    },
  };
}
