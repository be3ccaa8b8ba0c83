import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReviewThread, ThreadLabel } from '../../../src/contract/threads.js';
import { callRoute, routes } from '../api.js';
import {
  compareQuery,
  fixTargetQuery,
  gateDocQuery,
  reviewThreadsQuery,
  type DiffOptions,
} from '../queries.js';

/*
 * What the review page reads, keyed under ['item', id] (queries.ts) so the live stream's refresh of
 * the item (a rerun, an agent's reply) refreshes the diff, the threads and the fix target with it.
 */

export type { DiffOptions };

export function useCompare(id: string, o: DiffOptions, enabled: boolean) {
  return useInfiniteQuery({ ...compareQuery(id, o), enabled });
}

export function useThreads(id: string) {
  return useQuery(reviewThreadsQuery(id));
}

export function useFixTarget(id: string, node: string, enabled: boolean) {
  return useQuery({ ...fixTargetQuery(id, node), enabled });
}

/**
 * The pending gate's document, asked only when the item says a task wrote one (`gate_document`):
 * a gate that shows none would answer 404, which the browser logs as an error.
 */
export function useGateDoc(id: string, gate: string | null, document: string | null | undefined) {
  return useQuery({ ...gateDocQuery(id, gate), enabled: gate !== null && !!document });
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
  if (viewed) await callRoute(routes.markViewed, { params: { id }, body: { path } });
  else await callRoute(routes.clearViewedMark, { params: { id }, body: { path } });
}
