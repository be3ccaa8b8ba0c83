import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import {
  handshake,
  homeWithAccess,
  jsonBody,
  send,
  sessionCookie,
  testHash,
  type Res,
  type Target,
} from './helpers/perimeter.js';
import { cleanupAll, startJig } from './helpers/server.js';

/**
 * Browser writes and WebSocket handshakes must come from Jig's own origin: scheme http(s), and the
 * host and port of the request's Host (or, off loopback, of an allowed_hosts entry). Another port on
 * the same name (`http://localhost:3000`, a dev server) is another origin, and `Sec-Fetch-Site:
 * same-site` is not enough. Cells of Host x Origin x credentials x bind against the real server,
 * on a real item: a body-less POST is all it takes to cancel one.
 */

const PASSWORD = 'an origin password';
const DEV_SERVER = 'http://localhost:3000';

const cross = (reason: string) => ({
  status: 403,
  json: { detail: `cross-site write refused: ${reason}`, code: 'cross_site_write' },
});

function pick(res: Res): { status: number; json: unknown } {
  return { status: res.status, json: res.json };
}

/** Connects a repo and files one paused item, as the CLI would (no browser headers). */
async function pausedItem(t: Target, auth: Record<string, string>, repo: string): Promise<string> {
  const item = await send(t, {
    method: 'POST',
    path: '/api/work-items',
    ...jsonBody({ title: 'Origin target', repo }),
    headers: { 'content-type': 'application/json', ...auth },
  });
  expect(item.status, item.text).toBe(201);
  expect(item.json.status).toBe('paused');
  return item.json.id as string;
}

async function connectRepo(t: Target, auth: Record<string, string>): Promise<string> {
  const repo = makeRepo();
  const r = await send(t, {
    method: 'POST',
    path: '/api/repos',
    ...jsonBody({ path: repo, test_command: '' }),
    headers: { 'content-type': 'application/json', ...auth },
  });
  expect(r.status, r.text).toBe(201);
  return repo;
}

async function statusOf(t: Target, id: string, auth: Record<string, string>): Promise<string> {
  return (await send(t, { path: `/api/work-items/${id}`, headers: auth })).json.status as string;
}

afterAll(cleanupAll);

describe('loopback bind: a page on another localhost port', () => {
  let t: Target;
  let port: number;
  let repo: string;

  beforeAll(async () => {
    const jig = await startJig({ home: homeWithAccess('bind: 127.0.0.1\nport: 0\n'), args: [] });
    port = Number(new URL(jig.url).port);
    t = { port };
    repo = await connectRepo(t, {});
  });

  it('cannot cancel an item with a body-less POST; the board at its own origin can', async () => {
    const id = await pausedItem(t, {}, repo);
    const cancel = (headers: Record<string, string>) =>
      send(t, { method: 'POST', path: `/api/work-items/${id}/cancel`, headers });
    const board = `localhost:${port}`;

    // What a page on http://localhost:3000 sends with fetch(..., {method: 'POST', mode: 'no-cors'}).
    expect(
      pick(await cancel({ host: board, origin: DEV_SERVER, 'sec-fetch-site': 'same-site', accept: '*/*' })),
    ).toEqual(cross('Sec-Fetch-Site is same-site'));
    // The same without Fetch Metadata (an older browser), and by the Referer alone.
    expect(pick(await cancel({ host: board, origin: DEV_SERVER }))).toEqual(
      cross(`Origin is localhost:3000, not ${board}`),
    );
    expect(pick(await cancel({ host: board, referer: `${DEV_SERVER}/app` }))).toEqual(
      cross(`Referer is localhost:3000, not ${board}`),
    );
    // Another loopback name, the port left out, or a sandboxed page are not the board either.
    expect(pick(await cancel({ host: board, origin: `http://127.0.0.1:${port}` }))).toEqual(
      cross(`Origin is 127.0.0.1:${port}, not ${board}`),
    );
    expect(pick(await cancel({ host: board, origin: 'http://localhost' }))).toEqual(
      cross(`Origin is localhost, not ${board}`),
    );
    expect(pick(await cancel({ host: board, origin: 'null' }))).toEqual(
      cross('Origin "null" is not an http or https origin'),
    );
    expect(await statusOf(t, id, {})).toBe('paused');

    // The board's own origin, as the browser sends it.
    const ok = await cancel({ host: board, origin: `http://${board}`, 'sec-fetch-site': 'same-origin' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).toBe('cancelled');
  });

  it('cannot resume or approve either', async () => {
    const id = await pausedItem(t, {}, repo);
    const board = `localhost:${port}`;
    for (const path of [`/api/work-items/${id}/resume`, `/api/work-items/${id}/gates/review/approve`])
      expect(
        pick(await send(t, { method: 'POST', path, headers: { host: board, origin: DEV_SERVER } })),
        path,
      ).toEqual(cross(`Origin is localhost:3000, not ${board}`));
    expect(await statusOf(t, id, {})).toBe('paused');
  });

  it('cannot open the event stream; the board can', async () => {
    const board = `localhost:${port}`;
    expect(await handshake(port, { host: board, origin: DEV_SERVER })).toEqual(
      cross(`Origin is localhost:3000, not ${board}`),
    );
    expect(await handshake(port, { host: board, origin: DEV_SERVER, 'sec-fetch-site': 'same-site' })).toEqual(
      cross('Sec-Fetch-Site is same-site'),
    );
    expect(await handshake(port, { host: board, origin: `http://${board}` })).toEqual({
      status: 101,
      json: null,
    });
  });
});

describe('network bind: Host x Origin x credentials', () => {
  let t: Target;
  let port: number;
  let mcp: Record<string, string>;
  let cookie: Record<string, string>;
  let repo: string;

  beforeAll(async () => {
    const hash = await testHash(PASSWORD);
    const home = homeWithAccess(
      `bind: 0.0.0.0\nport: 0\npassword_hash: "${hash}"\nallowed_hosts: [jig.example, ops.example:8443]\n`,
    );
    const jig = await startJig({ home, args: [] });
    port = Number(new URL(jig.url).port);
    t = { port };
    mcp = { authorization: `Bearer ${readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim()}` };
    cookie = {
      cookie: sessionCookie(
        await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: PASSWORD }) }),
      ),
    };
    repo = await connectRepo(t, mcp);
  });

  it('refuses every other origin, whatever the credentials', async () => {
    const id = await pausedItem(t, mcp, repo);
    const own = `127.0.0.1:${port}`;
    // [Host, Origin, reason]
    const rows: Array<[string, string, string]> = [
      [own, 'http://127.0.0.1:3000', `Origin is 127.0.0.1:3000, not ${own} or an allowed_hosts entry`],
      [own, `http://localhost:${port}`, `Origin is localhost:${port}, not ${own} or an allowed_hosts entry`],
      [
        'jig.example',
        'https://jig.example:3000',
        'Origin is jig.example:3000, not jig.example or an allowed_hosts entry',
      ],
      [
        'jig.example',
        'https://ops.example',
        'Origin is ops.example, not jig.example or an allowed_hosts entry',
      ],
      [
        'jig.example',
        'https://www.jig.example',
        'Origin is www.jig.example, not jig.example or an allowed_hosts entry',
      ],
    ];
    for (const [host, origin, reason] of rows)
      for (const credentials of [{}, mcp, cookie]) {
        const res = await send(t, {
          method: 'POST',
          path: `/api/work-items/${id}/cancel`,
          headers: { host, origin, ...credentials },
        });
        expect(pick(res), `${host} ${origin} ${JSON.stringify(Object.keys(credentials))}`).toEqual(
          cross(reason),
        );
        expect(await handshake(port, { host, origin, ...credentials }), `ws ${host} ${origin}`).toEqual(
          cross(reason),
        );
      }
    expect(await statusOf(t, id, mcp)).toBe('paused');
  });

  it('lets its own origin through to the credential check: the Host, or an allowed_hosts entry with its port', async () => {
    // [Host, Origin]: behind a TLS proxy the browser says https, Jig sees http.
    const rows: Array<[string, string]> = [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      ['jig.example', 'https://jig.example'],
      ['jig.example:443', 'https://jig.example'],
      // A proxy that rewrites the Host to Jig's own address.
      [`127.0.0.1:${port}`, 'https://jig.example'],
      [`127.0.0.1:${port}`, 'https://ops.example:8443'],
    ];
    for (const [host, origin] of rows) {
      expect(
        pick(
          await send(t, { method: 'POST', path: '/api/work-items/nope/cancel', headers: { host, origin } }),
        ),
        `${host} ${origin} without credentials`,
      ).toEqual({
        status: 401,
        json: {
          detail: 'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>',
          code: 'login_required',
        },
      });
      expect(await handshake(port, { host, origin, ...cookie }), `ws ${host} ${origin}`).toEqual({
        status: 101,
        json: null,
      });
    }
    const id = await pausedItem(t, mcp, repo);
    const ok = await send(t, {
      method: 'POST',
      path: `/api/work-items/${id}/cancel`,
      headers: {
        host: 'jig.example',
        origin: 'https://jig.example',
        'sec-fetch-site': 'same-origin',
        ...cookie,
      },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).toBe('cancelled');
  });
});
