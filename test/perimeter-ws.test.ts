import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handshake, homeWithAccess, jsonBody, sessionCookie, send, testHash } from './helpers/perimeter.js';
import { cleanupAll, startJig } from './helpers/server.js';

/**
 * The `/api/ws/events` handshake meets the same perimeter as every request: the Host rules, the
 * own-origin rule (by `Origin` and `Sec-Fetch-Site`), and off loopback the credentials. A real upgrade request is sent
 * by hand (Node 20 has no WebSocket client); 101 means the handshake was accepted.
 */

const ACCEPTED = { status: 101, json: null };
const cross = (reason: string) => ({
  status: 403,
  json: { detail: `cross-site write refused: ${reason}`, code: 'cross_site_write' },
});

afterAll(cleanupAll);

describe('WebSocket handshake, loopback bind', () => {
  let port: number;
  beforeAll(async () => {
    const jig = await startJig({ home: homeWithAccess('bind: 127.0.0.1\nport: 0\n'), args: [] });
    port = Number(new URL(jig.url).port);
  });

  it("accepts a handshake from Jig's own origin, or a non-browser one, by a loopback name", async () => {
    expect(await handshake(port, {})).toEqual(ACCEPTED);
    expect(await handshake(port, { origin: `http://127.0.0.1:${port}` })).toEqual(ACCEPTED);
    expect(await handshake(port, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).toEqual(
      ACCEPTED,
    );
    expect(
      await handshake(port, {
        host: `localhost:${port}`,
        origin: `http://localhost:${port}`,
        'sec-fetch-site': 'same-origin',
      }),
    ).toEqual(ACCEPTED);
  });

  it('refuses one from another port of the same name, so a local dev server cannot read the events', async () => {
    expect(await handshake(port, { host: `localhost:${port}`, origin: 'http://localhost:3000' })).toEqual(
      cross(`Origin is localhost:3000, not localhost:${port}`),
    );
    expect(await handshake(port, { origin: 'http://127.0.0.1:3000' })).toEqual(
      cross(`Origin is 127.0.0.1:3000, not 127.0.0.1:${port}`),
    );
    expect(await handshake(port, { 'sec-fetch-site': 'same-site' })).toEqual(
      cross('Sec-Fetch-Site is same-site'),
    );
    expect(await handshake(port, { origin: 'null' })).toEqual(
      cross('Origin "null" is not an http or https origin'),
    );
  });

  it('refuses one whose Origin is another site, or whose Host is not a loopback name', async () => {
    expect(await handshake(port, { origin: 'http://evil.example' })).toEqual(
      cross(`Origin is evil.example, not 127.0.0.1:${port}`),
    );
    expect(await handshake(port, { host: 'evil.example', origin: 'http://evil.example' })).toEqual({
      status: 403,
      json: {
        detail: 'unexpected Host for a server bound to 127.0.0.1',
        code: 'host_not_allowed',
        host: 'evil.example',
      },
    });
  });
});

describe('WebSocket handshake, network bind', () => {
  let port: number;
  let mcp: string;
  let cookie: string;
  beforeAll(async () => {
    const hash = await testHash('ws password');
    const home = homeWithAccess(`bind: 0.0.0.0\nport: 0\npassword_hash: "${hash}"\n`);
    const jig = await startJig({ home, args: [] });
    port = Number(new URL(jig.url).port);
    mcp = readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim();
    cookie = sessionCookie(
      await send(
        { port },
        { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: 'ws password' }) },
      ),
    );
  });

  it('needs a session or the MCP token', async () => {
    expect(await handshake(port, {})).toEqual({
      status: 401,
      json: {
        detail: 'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>',
        code: 'login_required',
      },
    });
    expect(await handshake(port, { authorization: `Bearer ${mcp}` })).toEqual(ACCEPTED);
    expect(await handshake(port, { cookie, origin: `http://127.0.0.1:${port}` })).toEqual(ACCEPTED);
  });

  it('refuses another site even with a session', async () => {
    expect(await handshake(port, { cookie, origin: 'http://evil.example' })).toEqual(
      cross(`Origin is evil.example, not 127.0.0.1:${port}`),
    );
    expect(await handshake(port, { cookie, origin: 'http://127.0.0.1:3000' })).toEqual(
      cross(`Origin is 127.0.0.1:3000, not 127.0.0.1:${port}`),
    );
  });
});
