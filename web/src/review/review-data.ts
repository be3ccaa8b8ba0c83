import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ItemDiff } from '../../../src/contract/review.js';
import type { FixTarget, ReviewThread, ThreadLabel } from '../../../src/contract/threads.js';
import { ApiError, del, get, put } from '../api.js';

/*
 * What the review page reads, keyed under ['item', id] so the live stream's refresh of the item
 * (a rerun, an agent's reply) refreshes the diff, the threads and the fix target with it.
 */

export interface GateDoc {
  gate: string;
  kind: string;
  path: string;
  text: string;
  digest: string;
}

/** What the diff shows: the compare's two ends and its options. */
export interface DiffOptions {
  from: string;
  to: string;
  ignoreWhitespace: boolean;
}

/** Files per page: a big change arrives a page at a time, asked for with "More files". */
const PAGE = 50;

export function useCompare(id: string, o: DiffOptions, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['item', id, 'review-diff', o.from, o.to, o.ignoreWhitespace],
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => {
      const qs = new URLSearchParams({
        from: o.from,
        to: o.to,
        offset: String(pageParam),
        limit: String(PAGE),
      });
      if (o.ignoreWhitespace) qs.set('ignore_whitespace', '1');
      return get<ItemDiff>(`/api/work-items/${id}/compare?${qs.toString()}`);
    },
    getNextPageParam: (last) => last.next_offset ?? undefined,
  });
}

export function useThreads(id: string) {
  return useQuery({
    queryKey: ['item', id, 'review-threads'],
    queryFn: () => get<{ threads: ReviewThread[] }>(`/api/work-items/${id}/threads`),
  });
}

export function useFixTarget(id: string, node: string, enabled: boolean) {
  return useQuery({
    queryKey: ['item', id, 'fix-target', node],
    enabled,
    queryFn: () =>
      get<FixTarget>(`/api/work-items/${id}/fix-target${node ? `?node=${encodeURIComponent(node)}` : ''}`),
  });
}

/** The pending gate's document, or null when the gate shows none (the route's 404). */
export function useGateDoc(id: string, gate: string | null) {
  return useQuery({
    queryKey: ['item', id, 'artifact', gate],
    enabled: gate !== null,
    queryFn: async () => {
      try {
        return await get<GateDoc>(`/api/work-items/${id}/artifact`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
  });
}

/** A comment written on the page and kept here until Finish review posts it as a thread. */
export interface Pending {
  key: string;
  file_path: string;
  side: 'old' | 'new';
  start_line: number;
  end_line: number;
  body: string;
  label: ThreadLabel | null;
  suggestion: string | null;
}

/** Where a thread's lines are now, for placing it under a line of the diff. */
export function threadLine(t: ReviewThread): number | null {
  if (t.start_line === null) return null;
  if (t.side === 'old') return t.end_line ?? t.start_line;
  return t.lines_now ? t.lines_now.end : null;
}

/** Mark or clear a file's viewed mark (the DELETE names the file in its body). */
export async function setViewed(id: string, path: string, viewed: boolean): Promise<void> {
  const url = `/api/work-items/${id}/viewed`;
  if (viewed) await put(url, { path });
  else await del(url, undefined, { path });
}
