import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  homeWithAccess,
  jsonBody,
  netnsAvailable,
  send,
  sessionCookie,
  startJigInNetns,
  type NetnsJig,
  type Res,
} from './helpers/perimeter.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, repoRoot, runJig } from './helpers/server.js';

/**
 * The remote-peer rows against the real server. A peer is remote when its address is not loopback,
 * which needs a second address: the server runs alone in a user + network namespace whose loopback
 * device also carries 10.77.0.1, and the test reaches it through unix-socket forwarders from there
 * (remote) and from 127.0.0.1 (local). Where namespaces are not allowed the suite is skipped, and
 * the pure decision table (src/core/perimeter/decide.test.ts) covers these rows alone.
 */

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
const PROBE = '/api/perimeter-probe';
const PASSWORD = 'a remote password';
const NEEDS_PASSWORD = {
  status: 403,
  json: {
    detail:
      "remote callers are refused while no password is set; set one with `jig admin password` on the server's machine",
    code: 'remote_needs_password',
  },
};
const through = (method: string, path = PROBE) => ({
  status: 404,
  json: { detail: `no route ${method} ${path}`, code: 'route_not_found' },
});

function pick(res: Res): { status: number; json: unknown } {
  return { status: res.status, json: res.json };
}

const available = netnsAvailable();

describe.skipIf(!available)('a remote peer (network namespace)', () => {
  let jig: NetnsJig;
  let mcp: string;
  let trigger: string;

  beforeAll(async () => {
    const home = homeWithAccess('bind: 0.0.0.0\nport: 8765\n');
    jig = await startJigInNetns(home);
    mcp = readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim();
    trigger = readFileSync(join(home, 'run', 'trigger-token'), 'utf8').trim();
  });

  afterAll(async () => {
    await jig?.stop();
    await cleanupAll();
  });

  it('says at start that other machines can reach it, and what is missing: a password, allowed_hosts', async () => {
    // The warnings go to stderr, a pipe of its own: they can arrive after the listening line did.
    const lines = await eventually(
      () => {
        const now = jig.output().split('\n');
        const warned = now.some((l) => l.startsWith('jig: warning: allowed_hosts'));
        return warned && now.some((l) => l.startsWith('{') && l.includes('bound off loopback')) && now;
      },
      { what: "the start's warnings on stderr" },
    );
    expect(lines.filter((l) => l.startsWith('jig'))).toEqual([
      expect.stringMatching(/^jig listening on http:\/\/127\.0\.0\.1:8765 \(pid \d+, home /),
      'jig: bound to 0.0.0.0: other machines can reach this port',
      'jig: warning: no password is set, so every caller from another machine is refused (403); set one with `jig admin password`',
      'jig: warning: allowed_hosts in access.yaml is empty, so browsers reach the board only by a loopback name; list the name they use (for example `allowed_hosts: [jig.example.com]`)',
    ]);
    // Not a terminal: the log on stderr is JSON lines, the same warnings among them.
    const logged = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string });
    expect(logged.map((l) => l.msg)).toContain(
      'bound off loopback: no password is set, so every caller from another machine is refused (403); set one with `jig admin password`',
    );
  });

  it('is seen as remote: health reports the bind and answers', async () => {
    const res = await send(jig.remote, { path: '/api/health' });
    expect(res.status).toBe(200);
    expect(res.json.bind).toBe('0.0.0.0');
  });

  it('while no password is set, gets only the open routes, whatever it presents', async () => {
    for (const path of ['/api/health', '/openapi.json', '/docs', '/redoc'])
      expect((await send(jig.remote, { path })).status, path).toBe(200);
    const rows: Array<[string, string, Record<string, string>]> = [
      ['GET', PROBE, {}],
      ['GET', PROBE, { authorization: `Bearer ${mcp}` }],
      ['POST', '/api/triggers', { authorization: `Bearer ${trigger}` }],
      ['POST', '/api/auth/login', jsonBody({ password: PASSWORD }).headers],
      ['GET', '/login', {}],
    ];
    for (const [method, path, headers] of rows)
      expect(pick(await send(jig.remote, { method, path, headers })), `${method} ${path}`).toEqual(
        NEEDS_PASSWORD,
      );
    const page = await send(jig.remote, { path: '/', headers: { accept: HTML } });
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('remote callers are refused while no password is set');
    // The same token from this machine works.
    expect(pick(await send(jig.local, { path: PROBE, headers: { authorization: `Bearer ${mcp}` } }))).toEqual(
      through('GET'),
    );
  });

  it('once a password is set (no restart), needs a credential like any caller', async () => {
    const set = await runJig(['admin', 'password', '--stdin'], { JIG_HOME: jig.home }, `${PASSWORD}\n`);
    expect(set.code).toBe(0);
    expect(pick(await send(jig.remote, { path: PROBE }))).toEqual({
      status: 401,
      json: {
        detail: 'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>',
        code: 'login_required',
      },
    });
    expect(
      pick(await send(jig.remote, { path: PROBE, headers: { authorization: `Bearer ${mcp}` } })),
    ).toEqual(through('GET'));
    // The board's page and files are guarded like the API: nothing of it reaches a caller not logged in.
    const boardFile = readdirSync(join(repoRoot, 'dist', 'web', 'assets'))[0]!;
    for (const path of ['/', `/assets/${boardFile}`])
      expect((await send(jig.remote, { path })).status, path).toBe(401);
    const triggered = await send(jig.remote, {
      method: 'POST',
      path: '/api/triggers',
      headers: { authorization: `Bearer ${trigger}` },
    });
    expect([401, 403]).not.toContain(triggered.status);
    const login = await send(jig.remote, {
      method: 'POST',
      path: '/api/auth/login',
      ...jsonBody({ password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(pick(await send(jig.remote, { path: PROBE, headers: { cookie: sessionCookie(login) } }))).toEqual(
      through('GET'),
    );
  });

  it('lets only this machine open an editor: a remote caller with the token is refused, a local one passes', async () => {
    const auth = { authorization: `Bearer ${mcp}`, 'content-type': 'application/json' };
    expect((await send(jig.remote, { path: '/api/editors', headers: auth })).status).toBe(200);
    const opens: [string, string][] = [
      ['/api/work-items/nosuch/open-worktree', 'opening the worktree'],
      ['/api/work-items/nosuch/artifact/open', 'opening a document'],
      ['/api/work-items/nosuch/artifacts/spec/open', 'opening a document'],
      ['/api/documents/nosuch.spec/open', 'opening a document'],
    ];
    for (const [path, what] of opens) {
      expect(pick(await send(jig.remote, { method: 'POST', path, headers: auth, body: '{}' })), path).toEqual(
        {
          status: 403,
          json: {
            detail: `${what} starts a program on the server's machine: only a caller on that machine (loopback) may ask`,
            code: 'local_only',
          },
        },
      );
      // From this machine the same request gets past the rule (and finds no such item).
      const local = await send(jig.local, { method: 'POST', path, headers: auth, body: '{}' });
      expect(local.status, path).toBe(404);
    }
  });

  it('applies the Host rule to a remote browser', async () => {
    expect(
      pick(
        await send(jig.remote, {
          path: PROBE,
          headers: { host: 'evil.example', accept: HTML, authorization: `Bearer ${mcp}` },
        }),
      ),
    ).toEqual({
      status: 403,
      json: {
        detail: 'unexpected Host for a server bound to 0.0.0.0',
        code: 'host_not_allowed',
        host: 'evil.example',
      },
    });
  });

  it('limits failed logins per peer address: the remote peer is stopped, this machine is not', async () => {
    const wrong = () =>
      send(jig.remote, {
        method: 'POST',
        path: '/api/auth/login',
        ...jsonBody({ password: 'wrong password' }),
      });
    for (let i = 0; i < 5; i++)
      expect(pick(await wrong())).toEqual({
        status: 401,
        json: { detail: 'the password is not correct', code: 'wrong_password' },
      });
    const locked = await send(jig.remote, {
      method: 'POST',
      path: '/api/auth/login',
      ...jsonBody({ password: PASSWORD }),
    });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('too_many_attempts');
    const local = await send(jig.local, {
      method: 'POST',
      path: '/api/auth/login',
      ...jsonBody({ password: PASSWORD }),
    });
    expect(local.status).toBe(200);
  });
});
