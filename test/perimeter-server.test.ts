import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, startJig, type JigProcess } from './helpers/server.js';
import {
  homeWithAccess,
  jsonBody,
  send,
  sessionCookie,
  testHash,
  type Res,
  type Target,
} from './helpers/perimeter.js';

/**
 * The perimeter matrix against the real server, from loopback (every peer here is 127.0.0.1; the
 * remote-peer rows are in perimeter-remote.test.ts). A route that lets a request through answers
 * for itself: `/api/perimeter-probe` is a path no route will ever take, so "through" is an exact
 * 404 from the router, and "refused" is the perimeter's 401/403.
 */

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
const PROBE = '/api/perimeter-probe';
const PASSWORD = 'correct horse battery';

const through = (method: string, path = PROBE) => ({
  status: 404,
  json: { detail: `no route ${method} ${path}`, code: 'route_not_found' },
});
const hostRefused = (bind: string, host: string) => ({
  status: 403,
  json: { detail: `unexpected Host for a server bound to ${bind}`, code: 'host_not_allowed', host },
});
const crossSite = (reason: string) => ({
  status: 403,
  json: { detail: `cross-site write refused: ${reason}`, code: 'cross_site_write' },
});
const loginRequired = (reason: string) => ({ status: 401, json: { detail: reason, code: 'login_required' } });
const NO_CREDENTIALS =
  'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>';

function pick(res: Res): { status: number; json: unknown } {
  return { status: res.status, json: res.json };
}

function tokens(home: string): { mcp: string; trigger: string } {
  const read = (n: string): string => readFileSync(join(home, 'run', n), 'utf8').trim();
  return { mcp: read('mcp-token'), trigger: read('trigger-token') };
}

function portOf(j: JigProcess): number {
  return Number(new URL(j.url).port);
}

afterAll(cleanupAll);

describe('loopback bind (127.0.0.1)', () => {
  let t: Target;
  let port: number;
  let tok: { mcp: string; trigger: string };

  beforeAll(async () => {
    // allowed_hosts is set to show that it does not apply on a loopback bind.
    const home = homeWithAccess('bind: 127.0.0.1\nport: 0\nallowed_hosts: [jig.example]\n');
    const jig = await startJig({ home, args: [] });
    port = portOf(jig);
    t = { port };
    tok = tokens(home);
  });

  it('answers any caller addressed by a loopback name, with no credentials', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost']) {
      expect(pick(await send(t, { path: PROBE, headers: { host } })), host).toEqual(through('GET'));
      expect(pick(await send(t, { method: 'POST', path: PROBE, headers: { host } })), host).toEqual(
        through('POST'),
      );
      expect((await send(t, { path: '/api/health', headers: { host } })).status).toBe(200);
    }
    // A browser by a loopback name too.
    expect(pick(await send(t, { path: PROBE, headers: { accept: HTML, 'sec-fetch-site': 'none' } }))).toEqual(
      through('GET'),
    );
  });

  it('refuses every other Host with 403, health, webhooks, docs and tokens included', async () => {
    const rows: Array<[string, string, Record<string, string>]> = [
      ['GET', '/api/health', {}],
      ['GET', '/openapi.json', {}],
      ['POST', '/api/triggers', { authorization: `Bearer ${tok.trigger}` }],
      ['GET', PROBE, { authorization: `Bearer ${tok.mcp}` }],
      ['POST', '/api/auth/login', {}],
      ['GET', '/api/ws/events', { upgrade: 'websocket' }],
    ];
    for (const host of ['evil.example', `evil.example:${port}`, 'jig.example', `127.0.0.2:${port}`])
      for (const [method, path, headers] of rows)
        expect(
          pick(await send(t, { method, path, headers: { host, ...headers } })),
          `${host} ${path}`,
        ).toEqual(hostRefused('127.0.0.1', host));
  });

  it('refuses a request with no Host at all', async () => {
    expect(pick(await send(t, { path: '/api/health', headers: { host: '' } }))).toEqual(
      hostRefused('127.0.0.1', ''),
    );
  });

  it('answers a browser page with an HTML 403 naming the Host and what to do', async () => {
    for (const path of ['/', '/docs', '/login']) {
      const res = await send(t, { path, headers: { host: 'evil.example:8080', accept: HTML } });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>Host not allowed · Jig</title>');
      expect(res.text).toContain('addressed to <code>evil.example:8080</code>');
      expect(res.text).toContain(`<a href="http://localhost:${port}/">http://localhost:${port}/</a>`);
      expect(res.text).toContain('A tunnel or reverse proxy');
    }
    // Under /api the answer stays JSON, even for a browser.
    expect(
      pick(await send(t, { path: '/api/health', headers: { host: 'evil.example', accept: HTML } })),
    ).toEqual(hostRefused('127.0.0.1', 'evil.example'));
  });

  it('refuses cross-site writes and lets same-site writes and cross-site reads through', async () => {
    const ownHost = `127.0.0.1:${port}`;
    const own = `http://${ownHost}`;
    const rows: Array<[string, Record<string, string>, unknown]> = [
      ['POST', { origin: 'http://evil.example' }, crossSite(`Origin is evil.example, not ${ownHost}`)],
      ['DELETE', { origin: 'https://evil.example' }, crossSite(`Origin is evil.example, not ${ownHost}`)],
      ['PUT', { 'sec-fetch-site': 'cross-site' }, crossSite('Sec-Fetch-Site is cross-site')],
      ['PUT', { 'sec-fetch-site': 'same-site' }, crossSite('Sec-Fetch-Site is same-site')],
      [
        'PATCH',
        { referer: 'http://evil.example/page' },
        crossSite(`Referer is evil.example, not ${ownHost}`),
      ],
      ['POST', { origin: 'null' }, crossSite('Origin "null" is not an http or https origin')],
      [
        'POST',
        { origin: `http://localhost:${port}` },
        crossSite(`Origin is localhost:${port}, not ${ownHost}`),
      ],
      ['POST', { origin: 'http://127.0.0.1:3000' }, crossSite(`Origin is 127.0.0.1:3000, not ${ownHost}`)],
      ['POST', { origin: 'http://127.0.0.1' }, crossSite(`Origin is 127.0.0.1, not ${ownHost}`)],
      ['POST', { origin: own, 'sec-fetch-site': 'same-origin' }, through('POST')],
      ['POST', { origin: `https://${ownHost}` }, through('POST')],
      ['POST', { referer: `${own}/board` }, through('POST')],
      ['GET', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, through('GET')],
    ];
    for (const [method, headers, want] of rows)
      expect(
        pick(await send(t, { method, path: PROBE, headers })),
        `${method} ${JSON.stringify(headers)}`,
      ).toEqual(want);
    // The login call is a write like any other (no login CSRF).
    expect(
      pick(
        await send(t, {
          method: 'POST',
          path: '/api/auth/login',
          headers: { origin: 'http://evil.example' },
        }),
      ),
    ).toEqual(crossSite(`Origin is evil.example, not 127.0.0.1:${port}`));
  });

  it('reads the Upgrade header: a WebSocket handshake from another site is refused', async () => {
    // The full handshake matrix is in perimeter-ws.test.ts.
    expect(
      pick(
        await send(t, {
          path: '/api/ws/events',
          headers: { upgrade: 'websocket', origin: 'http://evil.example' },
        }),
      ),
    ).toEqual(crossSite(`Origin is evil.example, not 127.0.0.1:${port}`));
  });

  it('serves the login page saying no login is needed', async () => {
    const res = await send(t, { path: '/login', headers: { accept: HTML } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('This server is bound to loopback');
  });
});

describe('network bind (0.0.0.0) with a password, from loopback', () => {
  let t: Target;
  let port: number;
  let tok: { mcp: string; trigger: string };
  let cookie: string;

  beforeAll(async () => {
    const hash = await testHash(PASSWORD);
    const home = homeWithAccess(
      `bind: 0.0.0.0\nport: 0\npassword_hash: "${hash}"\nallowed_hosts: [jig.example]\n`,
    );
    const jig = await startJig({ home, args: [] });
    port = portOf(jig);
    t = { port };
    tok = tokens(home);
    cookie = sessionCookie(
      await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: PASSWORD }) }),
    );
  });

  it('opens health, the schema and its viewers to anyone', async () => {
    for (const path of ['/api/health', '/openapi.json', '/docs', '/redoc', '/docs/init.js'])
      for (const host of [`127.0.0.1:${port}`, 'anything.example'])
        expect((await send(t, { path, headers: { host } })).status, `${host} ${path}`).toBe(200);
  });

  it('needs a session or the MCP token everywhere else; the trigger token only on POST /api/triggers', async () => {
    const rows: Array<[string, string, Record<string, string>, unknown]> = [
      ['GET', PROBE, {}, loginRequired(NO_CREDENTIALS)],
      ['POST', PROBE, {}, loginRequired(NO_CREDENTIALS)],
      ['GET', '/', {}, loginRequired(NO_CREDENTIALS)],
      ['GET', PROBE, { authorization: `Bearer ${tok.mcp}` }, through('GET')],
      ['POST', PROBE, { authorization: `bearer ${tok.mcp}` }, through('POST')],
      ['GET', PROBE, { cookie }, through('GET')],
      ['POST', PROBE, { cookie }, through('POST')],
      [
        'GET',
        PROBE,
        { authorization: `Bearer ${tok.trigger}` },
        loginRequired('the trigger token is valid on POST /api/triggers only'),
      ],
      [
        'POST',
        PROBE,
        { authorization: `Bearer ${tok.trigger}` },
        loginRequired('the trigger token is valid on POST /api/triggers only'),
      ],
      [
        'GET',
        PROBE,
        { authorization: `Bearer ${tok.mcp}x` },
        loginRequired('the bearer token is not valid (it may have been rotated)'),
      ],
      [
        'GET',
        PROBE,
        { authorization: `Basic ${Buffer.from(`a:${PASSWORD}`).toString('base64')}` },
        loginRequired('the bearer token is not valid (it may have been rotated)'),
      ],
      [
        'GET',
        PROBE,
        { cookie: 'jig_session=forged' },
        loginRequired('the session is not valid; log in again at /login'),
      ],
      ['POST', '/api/triggers', {}, loginRequired(NO_CREDENTIALS)],
    ];
    for (const [method, path, headers, want] of rows)
      expect(
        pick(await send(t, { method, path, headers })),
        `${method} ${path} ${JSON.stringify(headers)}`,
      ).toEqual(want);
    const unauth = await send(t, { path: PROBE });
    expect(unauth.headers['www-authenticate']).toBe('Bearer realm="jig"');
  });

  it('lets the trigger, MCP token and a session through on POST /api/triggers', async () => {
    // The triggers route belongs to another issue: whatever it answers, it is not the perimeter's refusal.
    const presented: Array<Record<string, string>> = [
      { authorization: `Bearer ${tok.trigger}` },
      { authorization: `Bearer ${tok.mcp}` },
      { cookie },
    ];
    for (const headers of presented) {
      const res = await send(t, { method: 'POST', path: '/api/triggers', headers });
      expect([401, 403], JSON.stringify(headers)).not.toContain(res.status);
    }
  });

  it('checks a browser Host against the loopback names and allowed_hosts, but not the CLI, MCP or curl', async () => {
    const mcp = { authorization: `Bearer ${tok.mcp}` };
    const rows: Array<[Record<string, string>, unknown]> = [
      [{ host: 'evil.example', ...mcp }, through('GET')],
      [{ host: 'evil.example', accept: 'application/json', ...mcp }, through('GET')],
      [{ host: 'evil.example', accept: HTML, ...mcp }, hostRefused('0.0.0.0', 'evil.example')],
      [{ host: 'evil.example', 'sec-fetch-site': 'none', ...mcp }, hostRefused('0.0.0.0', 'evil.example')],
      [
        { host: 'evil.example', origin: 'http://evil.example', ...mcp },
        hostRefused('0.0.0.0', 'evil.example'),
      ],
      [
        { host: 'evil.example', referer: 'http://evil.example/', cookie },
        hostRefused('0.0.0.0', 'evil.example'),
      ],
      [{ host: `jig.example:${port}`, accept: HTML, cookie }, through('GET')],
      [{ host: 'JIG.example', 'sec-fetch-site': 'same-origin', ...mcp }, through('GET')],
      [{ host: 'www.jig.example', accept: HTML, cookie }, hostRefused('0.0.0.0', 'www.jig.example')],
      [{ host: `localhost:${port}`, accept: HTML, cookie }, through('GET')],
      [{ host: `[::1]:${port}`, accept: HTML, cookie }, through('GET')],
      // The Host rule comes before the login rule: a browser at a wrong name is told so first.
      [{ host: 'evil.example', accept: HTML }, hostRefused('0.0.0.0', 'evil.example')],
    ];
    for (const [headers, want] of rows)
      expect(pick(await send(t, { path: PROBE, headers })), JSON.stringify(headers)).toEqual(want);
  });

  it('refuses cross-site writes whatever the credentials; allows same-site ones at an allowed name', async () => {
    const mcp = { authorization: `Bearer ${tok.mcp}` };
    expect(
      pick(
        await send(t, { method: 'POST', path: PROBE, headers: { ...mcp, 'sec-fetch-site': 'cross-site' } }),
      ),
    ).toEqual(crossSite('Sec-Fetch-Site is cross-site'));
    expect(
      pick(
        await send(t, {
          method: 'POST',
          path: PROBE,
          headers: { host: 'jig.example', origin: 'http://other.example', cookie },
        }),
      ),
    ).toEqual(crossSite('Origin is other.example, not jig.example or an allowed_hosts entry'));
    expect(
      pick(
        await send(t, {
          method: 'POST',
          path: PROBE,
          headers: {
            host: 'jig.example',
            origin: 'https://jig.example',
            'sec-fetch-site': 'same-origin',
            cookie,
          },
        }),
      ),
    ).toEqual(through('POST'));
  });

  it('answers a browser page with the login page (401) and a wrong name with the Host page (403)', async () => {
    const login = await send(t, { path: '/board?x=1', headers: { accept: HTML } });
    expect(login.status).toBe(401);
    expect(login.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(login.text).toContain('<form method="post" action="/api/auth/login">');
    expect(login.text).toContain('<input type="hidden" name="next" value="/board?x=1">');

    const host = await send(t, { path: '/', headers: { host: 'evil.example', accept: HTML } });
    expect(host.status).toBe(403);
    expect(host.text).toContain('addressed to <code>evil.example</code>');
    expect(host.text).toContain('add <code>evil.example</code> to <code>allowed_hosts</code>');
  });

  it('serves the login form without credentials', async () => {
    const res = await send(t, { path: '/login', headers: { accept: HTML } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<input type="password" name="password"');
  });
});

describe('network bind (0.0.0.0) with no password, from loopback', () => {
  let t: Target;
  let tok: { mcp: string; trigger: string };

  beforeAll(async () => {
    const home = homeWithAccess('bind: 0.0.0.0\nport: 0\n');
    const jig = await startJig({ home, args: [] });
    t = { port: portOf(jig) };
    tok = tokens(home);
  });

  it('takes the MCP token from this machine, and refuses the rest with 401', async () => {
    expect(pick(await send(t, { path: PROBE, headers: { authorization: `Bearer ${tok.mcp}` } }))).toEqual(
      through('GET'),
    );
    expect(pick(await send(t, { path: PROBE }))).toEqual(loginRequired(NO_CREDENTIALS));
    expect((await send(t, { path: '/api/health' })).status).toBe(200);
  });

  it('cannot log anyone in', async () => {
    expect(
      pick(await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: PASSWORD }) })),
    ).toEqual({
      status: 409,
      json: {
        detail: "no password is set; set one with `jig admin password` on the server's machine",
        code: 'password_not_set',
      },
    });
    const page = await send(t, { path: '/login', headers: { accept: HTML } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('No password is set, so nobody can log in');
  });
});
