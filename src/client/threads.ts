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

export const listThreadsOf = (c: JigClient, id: string, openOnly: boolean) =>
  c.call(listItemThreads, { params: { id }, query: openOnly ? { open_only: '1' } : {} });

export const postThreadOn = (c: JigClient, id: string, body: ThreadBody) =>
  c.call(postThread, { params: { id }, body });

export const setThreadState = (c: JigClient, id: string, thread: string, state: 'resolved' | 'open') =>
  c.call(state === 'resolved' ? resolveThread : reopenThread, { params: { id, thread } });

export const submitReviewOf = (
  c: JigClient,
  id: string,
  body: { outcome: 'approve' | 'request_changes' | 'comment'; summary?: string; node?: string },
) => c.call(submitReview, { params: { id }, body });

export const fixTargetOf = (c: JigClient, id: string) => c.call(getFixTarget, { params: { id }, query: {} });
