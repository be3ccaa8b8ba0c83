import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody, send, sessionCookie, type Res, type Target } from './helpers/perimeter.js';
import { cleanupAll, runJig, startJig, tempHome } from './helpers/server.js';

/** `jig admin rotate-tokens` against a running server bound off loopback: the old token stops at once. */

const PROBE = '/api/perimeter-probe';
const THROUGH = { status: 404, json: { detail: `no route GET ${PROBE}`, code: 'route_not_found' } };
const ROTATED = {
  status: 401,
  json: { detail: 'the bearer token is not valid (it may have been rotated)', code: 'login_required' },
};
const PASSWORD = 'token test password';

function pick(res: Res): { status: number; json: unknown } {
  return { status: res.status, json: res.json };
}

afterAll(cleanupAll);

describe('token rotation', () => {
  let home: string;
  let t: Target;
  const read = (name: 'mcp' | 'trigger'): string =>
    readFileSync(join(home, 'run', `${name}-token`), 'utf8').trim();
  const get = (token: string): Promise<Res> =>
    send(t, { path: PROBE, headers: { authorization: `Bearer ${token}` } });
  /** Whether the perimeter lets this token file a trigger (the route itself belongs to another issue). */
  const triggers = async (token: string): Promise<boolean> => {
    const res = await send(t, {
      method: 'POST',
      path: '/api/triggers',
      headers: { authorization: `Bearer ${token}` },
    });
    return res.status !== 401 && res.status !== 403;
  };

  beforeAll(async () => {
    home = tempHome('jig-tokens-');
    expect((await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, PASSWORD)).code).toBe(0);
    const jig = await startJig({ home, args: ['--host', '0.0.0.0', '--port', '0'] });
    t = { port: Number(new URL(jig.url).port) };
  });

  it('replaces only the MCP token with --mcp', async () => {
    const [mcp, trigger] = [read('mcp'), read('trigger')];
    expect(pick(await get(mcp))).toEqual(THROUGH);
    const r = await runJig(['admin', 'rotate-tokens', '--mcp'], { JIG_HOME: home });
    expect(r).toEqual({
      code: 0,
      stdout: `rotated mcp token: ${join(home, 'run', 'mcp-token')}\n`,
      stderr: '',
    });
    expect(pick(await get(mcp))).toEqual(ROTATED);
    expect(pick(await get(read('mcp')))).toEqual(THROUGH);
    expect(read('trigger')).toBe(trigger);
    expect(await triggers(trigger)).toBe(true);
  });

  it('replaces only the trigger token with --trigger', async () => {
    const [mcp, trigger] = [read('mcp'), read('trigger')];
    const r = await runJig(['admin', 'rotate-tokens', '--trigger', '--json'], { JIG_HOME: home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      rotated: ['trigger'],
      files: { mcp: null, trigger: join(home, 'run', 'trigger-token') },
    });
    expect(await triggers(trigger)).toBe(false);
    expect(await triggers(read('trigger'))).toBe(true);
    expect(read('mcp')).toBe(mcp);
    expect(pick(await get(mcp))).toEqual(THROUGH);
  });

  it('replaces both with no flag, as 0600 files of 256-bit tokens; sessions are untouched', async () => {
    const cookie = sessionCookie(
      await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: PASSWORD }) }),
    );
    const [mcp, trigger] = [read('mcp'), read('trigger')];
    expect((await runJig(['admin', 'rotate-tokens'], { JIG_HOME: home })).code).toBe(0);
    for (const name of ['mcp', 'trigger'] as const) {
      expect(statSync(join(home, 'run', `${name}-token`)).mode & 0o777).toBe(0o600);
      expect(read(name)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(read('mcp')).not.toBe(mcp);
    expect(read('trigger')).not.toBe(trigger);
    expect(pick(await get(mcp))).toEqual(ROTATED);
    expect(await triggers(trigger)).toBe(false);
    expect(pick(await send(t, { path: PROBE, headers: { cookie } }))).toEqual(THROUGH);
  });

  it('lets the CLI follow the new token by itself (it reads the file)', async () => {
    // reload is a guarded route: it needs the MCP token off loopback.
    const r = await runJig(['admin', 'reload', '--json'], { JIG_HOME: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).refused).toEqual([]);
  });

  it('never writes a token, a cookie or the password into the server log', async () => {
    const cookie = sessionCookie(
      await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: PASSWORD }) }),
    );
    // Refused requests are logged; send some with every kind of secret.
    await get('not-a-token');
    await send(t, { path: PROBE, headers: { cookie: 'jig_session=forged' } });
    await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password: 'a wrong one' }) });
    const log = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain('request refused');
    for (const secret of [
      read('mcp'),
      read('trigger'),
      cookie.split('=')[1]!,
      PASSWORD,
      'a wrong one',
      'not-a-token',
      'forged',
    ])
      expect(log).not.toContain(secret);
  });
});
