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

/**
 * An API refusal: the server's `{detail, code}` with its status, and the whole body, since some
 * refusals carry more than a sentence (a stale publish's three versions, a YAML error's line).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body: unknown = null,
  ) {
    super(detail);
  }
}

/** Headers a caller adds: `If-Match` with an ETag for the saves that check one. */
export type Headers = Record<string, string>;

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Headers = {},
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetch(path, {
    method,
    signal,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  if (!res.ok) {
    const e = (parsed ?? {}) as { detail?: string; code?: string };
    throw new ApiError(res.status, e.code ?? 'http_error', e.detail ?? `HTTP ${res.status}`, parsed);
  }
  return parsed as T;
}

/** A GET that also returns the answer's ETag, for a save that sends it back as `If-Match`. */
export async function getTagged<T>(path: string): Promise<{ body: T; etag: string | null }> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  const text = await res.text();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (!res.ok) {
    const e = (parsed ?? {}) as { detail?: string; code?: string };
    throw new ApiError(res.status, e.code ?? 'http_error', e.detail ?? `HTTP ${res.status}`, parsed);
  }
  return { body: parsed as T, etag: res.headers.get('etag') };
}

/** `signal`: a read React Query may cancel, so an answer made stale by a write is never read. */
export const get = <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, {}, signal);
export const post = <T>(path: string, body: unknown = {}, headers?: Headers) =>
  request<T>('POST', path, body, headers);
export const patch = <T>(path: string, body: unknown, headers?: Headers) =>
  request<T>('PATCH', path, body, headers);
export const put = <T>(path: string, body: unknown, headers?: Headers) =>
  request<T>('PUT', path, body, headers);
export const del = <T>(path: string, headers?: Headers, body?: unknown) =>
  request<T>('DELETE', path, body, headers);

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
