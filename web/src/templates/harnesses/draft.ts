import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { DraftAnswer, OpsAnswer, PublishAnswer } from '../../../../src/contract/drafts/answers.js';
import { ApiError, del, get, post } from '../../api.js';
import { staleOf, type Stale } from '../../settings/stale.js';

/*
 * A settings draft (docs/drafts.md "Settings areas"): the server keeps it, each op answers the whole
 * draft with its result, so the screen shows that answer and never guesses one of its own.
 */

export type Draft = z.infer<typeof DraftAnswer>;
export type Published = z.infer<typeof PublishAnswer>;
export type Op = Record<string, unknown>;

export function useDraft(area: string) {
  const client = useQueryClient();
  const key = ['draft', area];
  const url = `/api/drafts/${area}/${area}`;
  const draft = useQuery({ queryKey: key, queryFn: () => get<Draft>(url) });
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const [published, setPublished] = useState<Published | null>(null);
  // A stale publish is not a refusal to read but a choice to make: rebase or discard.
  const [stale, setStale] = useState<Stale | null>(null);
  const fail = (e: unknown) => {
    const s = staleOf(e);
    setStale(s);
    if (s) setRefusal(null);
    else if (e instanceof ApiError) setRefusal(e);
    else setRefusal(new ApiError(0, 'network', e instanceof Error ? e.message : String(e)));
  };
  const ops = useMutation({
    mutationFn: (list: Op[]) => post<z.infer<typeof OpsAnswer>>(`${url}/ops`, { ops: list }),
    onMutate: () => {
      setRefusal(null);
      setPublished(null);
    },
    onSuccess: (answer) => client.setQueryData(key, answer),
    onError: fail,
  });
  const publish = useMutation({
    mutationFn: () => post<Published>(`${url}/publish`),
    onMutate: () => setRefusal(null),
    onSuccess: async (answer) => {
      setPublished(answer);
      setStale(null);
      await client.invalidateQueries({ queryKey: key });
      await client.invalidateQueries({ queryKey: ['harnesses'] });
      await client.invalidateQueries({ queryKey: ['repos'] });
    },
    onError: fail,
  });
  const discard = useMutation({
    mutationFn: () => del<null>(url),
    onMutate: () => setRefusal(null),
    onSuccess: async () => {
      setStale(null);
      await client.invalidateQueries({ queryKey: key });
    },
    onError: fail,
  });
  // Undo answers no draft (docs/drafts.md): the draft is read again, and may be gone.
  const undo = useMutation({
    mutationFn: () => post<unknown>(`${url}/undo`),
    onMutate: () => {
      setRefusal(null);
      setPublished(null);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
    onError: fail,
  });
  const rebase = useMutation({
    mutationFn: () => post<unknown>(`${url}/rebase`),
    onMutate: () => setRefusal(null),
    onSuccess: async () => {
      setStale(null);
      await client.invalidateQueries({ queryKey: key });
    },
    onError: fail,
  });
  return {
    draft,
    ops,
    publish,
    discard,
    undo,
    rebase,
    refusal,
    stale,
    published,
    clearPublished: () => setPublished(null),
  };
}
