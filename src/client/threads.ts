import {
  getFixTarget,
  listItemThreads,
  postThread,
  reopenThread,
  resolveThread,
  submitReview,
} from '../contract/routes/work-items/threads.js';
import type { ThreadBody } from '../contract/threads.js';
import type { JigClient } from './http.js';
import { getItem } from './items.js';

export const listThreadsOf = (c: JigClient, id: string, openOnly: boolean) =>
  c.call(listItemThreads, { params: { id }, query: openOnly ? { open_only: '1' } : {} });

export const postThreadOn = (c: JigClient, id: string, body: ThreadBody) =>
  c.call(postThread, { params: { id }, body });

export const setThreadState = (c: JigClient, id: string, thread: string, state: 'resolved' | 'open') =>
  c.call(state === 'resolved' ? resolveThread : reopenThread, { params: { id, thread } });

/**
 * Submits a review. An approval or a request for changes at a gate answers the gate request the
 * item shows now (read here unless `request` is given), so it never decides a later one.
 */
export const submitReviewOf = async (
  c: JigClient,
  id: string,
  body: {
    outcome: 'approve' | 'request_changes' | 'comment';
    summary?: string;
    node?: string;
    request?: number;
  },
) => {
  let request = body.request;
  if (request === undefined && body.outcome !== 'comment')
    request = (await getItem(c, id)).gate_request ?? undefined;
  return c.call(submitReview, {
    params: { id },
    body: { ...body, ...(request !== undefined ? { request } : {}) },
  });
};

export const fixTargetOf = (c: JigClient, id: string) => c.call(getFixTarget, { params: { id }, query: {} });
