import WebSocket from 'ws';
import type { EventRecord, EventsPage } from '../contract/events.js';
import type { WorkItem } from '../contract/items.js';
import { ApiError, type JigClient } from './http.js';

export interface CreateItemInput {
  title: string;
  repo: string;
  chain?: string;
  description?: string;
  attachments?: { spec?: { path: string } | { text: string }; plan?: { path: string } | { text: string } };
  budget_usd?: number | null;
}

export const createItem = (c: JigClient, body: CreateItemInput) =>
  c.call<WorkItem>('POST', '/api/work-items', body);
export const getItem = (c: JigClient, id: string) =>
  c.call<WorkItem>('GET', `/api/work-items/${encodeURIComponent(id)}`);

export function listItems(c: JigClient, q: Record<string, string | undefined>) {
  const params = new URLSearchParams(
    Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return c.call<{ items: WorkItem[]; next_cursor: string | null; total: number }>(
    'GET',
    `/api/work-items?${params.toString()}`,
  );
}

export type ItemMove = 'cancel' | 'complete' | 'archive' | 'restore' | 'abandon';

export const moveItem = (c: JigClient, id: string, move: ItemMove, reason?: string) =>
  c.call<WorkItem>('POST', `/api/work-items/${encodeURIComponent(id)}/${move}`, reason ? { reason } : {});

export const escalateItem = (c: JigClient, id: string, message: string) =>
  c.call<{ work_item_id: string; session: string; harness: string }>(
    'POST',
    `/api/work-items/${encodeURIComponent(id)}/escalate`,
    { message },
  );

export const stopEscalation = (c: JigClient, id: string) =>
  c.call<{ work_item_id: string; stopped: string }>(
    'POST',
    `/api/work-items/${encodeURIComponent(id)}/escalate/stop`,
    {},
  );

export const readEvents = (c: JigClient, id: string, after?: number, limit = 1000) =>
  c.call<EventsPage>(
    'GET',
    `/api/work-items/${encodeURIComponent(id)}/events?limit=${limit}${after !== undefined ? `&after=${after}` : ''}`,
  );

/**
 * Follows the live event stream from after `afterSeq`, calling `onEvent` for each event of the
 * item (or every item when `id` is null) until the connection ends.
 */
export function followEvents(
  c: JigClient,
  id: string | null,
  afterSeq: number,
  onEvent: (e: EventRecord) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = `${c.server.url.replace(/^http/, 'ws')}/api/ws/events?after_seq=${afterSeq}`;
    const headers: Record<string, string> = {};
    if (c.server.token) headers.authorization = `Bearer ${c.server.token}`;
    const ws = new WebSocket(url, { headers });
    ws.on('message', (data: WebSocket.RawData) => {
      const msg = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as {
        type: string;
        event?: EventRecord;
      };
      if (msg.type === 'event' && msg.event && (id === null || msg.event.work_item_id === id))
        onEvent(msg.event);
    });
    ws.on('close', () => resolve());
    ws.on('error', reject);
  });
}

export interface SessionInfo {
  id: string;
  node: string;
  task_path: string;
  status: string;
  exit_code: number | null;
  started_at: string;
  log_bytes: number;
}

export const listSessions = (c: JigClient, id: string) =>
  c.call<{ sessions: SessionInfo[] }>('GET', `/api/work-items/${encodeURIComponent(id)}/sessions`);

export async function readLog(c: JigClient, id: string, session: string, tail?: number): Promise<string> {
  const q = tail !== undefined ? `?tail=${tail}` : '';
  const res = await c.request<string>(
    'GET',
    `/api/work-items/${encodeURIComponent(id)}/sessions/${encodeURIComponent(session)}/log${q}`,
  );
  if (res.status !== 200) throw new ApiError(res.status, res.body as unknown as ApiError['body']);
  return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
}

/** The moves the engine makes: resume, pause, retry and skip (bodies as the lifecycle routes take them). */
export type RunMove = 'resume' | 'pause' | 'retry' | 'skip';

export const runMove = (c: JigClient, id: string, move: RunMove, body: Record<string, unknown>) =>
  c.call<WorkItem>('POST', `/api/work-items/${encodeURIComponent(id)}/${move}`, body);
