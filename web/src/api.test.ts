import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, callRoute, callRouteTagged, routes, routeUrl } from './api.js';

/*
 * The board's route helper: the one module that writes an API path, and the calls it makes of the
 * routes' contracts (the browser tests run each of them against the real server).
 */

// Vite's glob import: the sources of the board as text, with no node:* module in web/src.
declare global {
  interface ImportMeta {
    glob(pattern: string, options: { query: '?raw'; import: 'default'; eager: true }): Record<string, string>;
  }
}

describe('API paths', () => {
  it('are written in api.ts only: every other call goes through callRoute and its route table', () => {
    const sources = import.meta.glob('./**/*.{ts,tsx,css}', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const files = Object.keys(sources);
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('./api.ts');
    const offenders = files.filter(
      (f) => f !== './api.ts' && f !== './api.test.ts' && sources[f]!.includes('/api/'),
    );
    expect(offenders).toEqual([]);
  });

  it('each route of the table is one of the API', () => {
    for (const [name, r] of Object.entries(routes)) expect(r.path, name).toMatch(/^\/api\//);
  });
});

describe('routeUrl', () => {
  it('substitutes and encodes each path param, then adds the query', () => {
    expect(routeUrl(routes.approveGate, { params: { id: 'ab12', gate: 'spec review' } })).toBe(
      '/api/work-items/ab12/gates/spec%20review/approve',
    );
    expect(
      routeUrl(routes.putDraftFile, { params: { area: 'chains', key: 'x', file: 'chains/x.yaml' } }),
    ).toBe('/api/drafts/chains/x/files/chains%2Fx.yaml');
    expect(
      routeUrl(routes.readItemEvents, {
        params: { id: 'ab12' },
        query: { limit: 50, before: 9, type: undefined },
      }),
    ).toBe('/api/work-items/ab12/events?limit=50&before=9');
    expect(routeUrl(routes.patchRepo, { query: { path: '/src/a b&c' } })).toBe(
      '/api/repos?path=%2Fsrc%2Fa+b%26c',
    );
  });
});

describe('callRoute', () => {
  const calls: { url: string; init: RequestInit }[] = [];
  const answer = (
    status: number,
    body: string,
    type = 'application/json',
    headers: Record<string, string> = {},
  ) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response(status === 204 ? null : body, {
          status,
          headers: { 'content-type': type, ...headers },
        });
      }),
    );
  afterEach(() => {
    vi.unstubAllGlobals();
    calls.length = 0;
  });

  it('sends the body as JSON, and `{}` for a write that has none', async () => {
    answer(200, '{"id":"ab12","status":"paused"}');
    await callRoute(routes.pauseItem, { params: { id: 'ab12' } });
    await callRoute(routes.raiseBudget, { params: { id: 'ab12' }, body: { cap_usd: 5 } });
    expect(calls.map((c) => [c.init.method, c.url, c.init.body])).toEqual([
      ['POST', '/api/work-items/ab12/pause', '{}'],
      ['POST', '/api/work-items/ab12/budget/raise', '{"cap_usd":5}'],
    ]);
    expect(calls[1]!.init.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('answers a read without a body, a 204 as null and a text answer as text', async () => {
    answer(204, '');
    expect(await callRoute(routes.discardDraft, { params: { area: 'policy', key: 'policy' } })).toBeNull();
    expect(calls[0]!.init.body).toBeUndefined();
    answer(200, 'line 1\n', 'text/plain; charset=utf-8');
    expect(
      await callRoute(routes.readSessionLog, { params: { id: 'ab12', session: 's1' }, query: { offset: 0 } }),
    ).toBe('line 1\n');
  });

  it('sends headers and answers the ETag', async () => {
    answer(200, '{"file":"library.yaml","text":""}', 'application/json', { etag: '"v1"' });
    const tagged = await callRouteTagged(routes.getLibraryFile);
    expect(tagged.etag).toBe('"v1"');
    await callRoute(routes.putLibrary, { body: { text: 'x' }, headers: { 'if-match': '"v1"' } });
    expect(calls[1]!.init.headers).toMatchObject({ 'if-match': '"v1"' });
  });

  it("throws a refusal as an ApiError with the catalogue's code and the whole body", async () => {
    answer(409, '{"detail":"published since this draft began","code":"draft_stale","files":{}}');
    const e = await callRoute(routes.publishDraft, { params: { area: 'policy', key: 'policy' } }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ApiError);
    const refusal = e as ApiError;
    expect([refusal.status, refusal.code, refusal.message]).toEqual([
      409,
      'draft_stale',
      'published since this draft began',
    ]);
    expect(refusal.is('draft_stale')).toBe(true);
    expect(refusal.body).toMatchObject({ files: {} });
  });

  it('says what it can of an answer with no error body', async () => {
    answer(502, '<html>bad gateway</html>', 'text/html');
    const e = (await callRoute(routes.getHealth).catch((x: unknown) => x)) as ApiError;
    expect([e.status, e.code, e.message]).toEqual([502, null, 'HTTP 502']);
  });
});
