import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  cleanup,
  render,
  renderHook,
  type RenderHookResult,
  type RenderResult,
} from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { ErrorCode } from '../../src/contract/errors.js';
import { routes, type AnswerOf } from './api.js';

/*
 * The kit of the board's component and hook tests (`*.test.tsx`, run in happy-dom): a fake server
 * that answers the board's calls by route name and records each one, and a render wrapped in what
 * the screens need (a QueryClient of the test's own and a router). Nothing reaches a network: the
 * global fetch is replaced for the test and put back after it. The browser tests (test/board-*.test.ts)
 * run the real server; these stop at the HTTP boundary the contract types.
 */

export type RouteName = keyof typeof routes;

/** One call the board made: which route (its method and path), and what it sent. */
export interface Call {
  route: RouteName;
  /** The path params, decoded; left out when the route has none. */
  params?: Record<string, string>;
  /** The query; left out when there is none. */
  query?: Record<string, string>;
  /** The JSON body as parsed; left out when none was sent. */
  body?: unknown;
}

/** What a route answers in a test: its success body (as 200 JSON), or a Response of its own. */
type Answer<K extends RouteName> = (call: Call) => AnswerOf<K> | Response | Promise<AnswerOf<K> | Response>;
export type Answers = { [K in RouteName]?: Answer<K> };

/** An error answer as the server writes one: `{detail, code, ...more}` (no code: `{detail}`). */
export function refusal(status: number, code: ErrorCode | null, detail: string, more: object = {}): Response {
  return new Response(JSON.stringify({ detail, ...(code ? { code } : {}), ...more }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The route a request is of: method and path against the table, a literal segment before a param. */
function routeOf(method: string, path: string): Pick<Call, 'route' | 'params'> | null {
  const segs = path.split('/');
  let best: { route: RouteName; params: Record<string, string>; n: number } | null = null;
  for (const [name, r] of Object.entries(routes) as [RouteName, (typeof routes)[RouteName]][]) {
    const want = r.path.split('/');
    if (r.method !== method || want.length !== segs.length) continue;
    const params: Record<string, string> = {};
    const fits = want.every((w, i) => {
      if (w.startsWith(':')) return (params[w.slice(1)] = decodeURIComponent(segs[i]!)) !== '';
      return w === segs[i];
    });
    const n = Object.keys(params).length;
    if (fits && (best === null || n < best.n)) best = { route: name, params, n };
  }
  return best && { route: best.route, ...(best.n > 0 ? { params: best.params } : {}) };
}

/**
 * Replaces fetch with a server that answers `answers` and records every call in `calls`. A call
 * of a route the test does not answer gets a 501 (and is recorded), so the test sees it.
 */
export function fakeApi(answers: Answers) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://board.test');
    const method = init.method ?? 'GET';
    const found = routeOf(method, url.pathname);
    if (!found) throw new Error(`not a route of the board: ${method} ${input}`);
    const query = Object.fromEntries(url.searchParams);
    const call: Call = {
      ...found,
      ...(url.searchParams.size > 0 ? { query } : {}),
      ...(typeof init.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
    };
    calls.push(call);
    const answer = answers[found.route];
    if (!answer) return refusal(501, null, `no answer for ${found.route} in this test`);
    const out = await answer(call);
    if (out instanceof Response) return out;
    if (out === null || out === undefined) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(out), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls,
    /** The calls of one route. */
    of: (route: RouteName) => calls.filter((c) => c.route === route),
  };
}

export type FakeApi = ReturnType<typeof fakeApi>;

/** A promise the test settles: an answer held back to see the screen while it waits. */
export function held<T>() {
  let settle!: (v: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, settle };
}

const clients: QueryClient[] = [];

/**
 * After each test: the screens unmounted, the test's query caches dropped and fetch put back. Run by
 * the board project's setup file (web/src/test-setup.ts) for every file: a worker runs file after
 * file with this module loaded once, so a hook registered here would run in the first file only.
 */
export function resetKit(): void {
  cleanup();
  for (const c of clients.splice(0)) c.clear();
  vi.unstubAllGlobals();
}

export interface AppOptions {
  /** Where the router starts (`/?group=repo`). */
  url?: string;
  /** A route pattern the rendered element sits at, for `useParams` (`/templates/chains/:id`). */
  path?: string;
}

/**
 * A board for one test: the fake server, a QueryClient that does not retry, and a router; `render`
 * and `hook` draw inside them, `location()` is where the router is now.
 */
export function boardTest(answers: Answers, options: AppOptions = {}) {
  const api = fakeApi(answers);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  clients.push(client);
  let where = '';
  function Where() {
    const l = useLocation();
    where = l.pathname + l.search;
    return null;
  }
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[options.url ?? '/']}>
          <Where />
          {options.path ? (
            <Routes>
              <Route path={options.path} element={children} />
            </Routes>
          ) : (
            children
          )}
        </MemoryRouter>
      </QueryClientProvider>
    );
  }
  return {
    api,
    client,
    render: (ui: ReactElement): RenderResult => render(ui, { wrapper: Wrapper }),
    hook: <T,>(use: () => T): RenderHookResult<T, unknown> => renderHook(use, { wrapper: Wrapper }),
    location: () => where,
  };
}
