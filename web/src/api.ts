import type { z } from 'zod';
import type { HealthAnswer } from '../../src/contract/health.js';
import type { ItemsPage, WorkItem } from '../../src/contract/items.js';

/*
 * The board's HTTP client: same-origin fetches of the JSON API with the session cookie. Types come
 * from src/contract only (type imports: no schema code reaches the bundle); the browser tests run
 * every call the board makes against the real server, which is what keeps these paths honest.
 */

export type Item = WorkItem;
export type Page = z.infer<typeof ItemsPage>;
export type Health = HealthAnswer;

/** An API refusal: the server's `{detail, code}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (!res.ok) {
    const e = (parsed ?? {}) as { detail?: string; code?: string };
    throw new ApiError(res.status, e.code ?? 'http_error', e.detail ?? `HTTP ${res.status}`);
  }
  return parsed as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);

/** Every item not archived, page by page (the list route answers at most 500 at a time). */
export async function allItems(archived: 'false' | 'true' = 'false'): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  for (;;) {
    const qs = new URLSearchParams({ archived, limit: '500' });
    if (cursor) qs.set('cursor', cursor);
    const page = await get<Page>(`/api/work-items?${qs.toString()}`);
    out.push(...page.items);
    cursor = page.next_cursor ?? null;
    if (!cursor) return out;
  }
}
