import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody, send, sessionCookie, type Res, type Target } from './helpers/perimeter.js';
import { cleanupAll, repoRoot, runJig, startJig, tempHome } from './helpers/server.js';

/**
 * Login, logout, expiry, rate limiting and password changes against the real server, bound off
 * loopback (0.0.0.0) and called from loopback. The password is set with the real CLI, default
 * scrypt cost included.
 */

const PROBE = '/api/perimeter-probe';
const PASSWORD = 'first password';
const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
const THROUGH = { status: 404, json: { detail: `no route GET ${PROBE}`, code: 'route_not_found' } };
const WRONG = { status: 401, json: { detail: 'the password is not correct', code: 'wrong_password' } };
const NOT_VALID = {
  status: 401,
  json: { detail: 'the session is not valid; log in again at /login', code: 'login_required' },
};

function pick(res: Res): { status: number; json: unknown } {
  return { status: res.status, json: res.json };
}

afterAll(cleanupAll);

describe('browser login against a running server', () => {
  let home: string;
  let t: Target;
  const login = (password: string, headers: Record<string, string> = {}): Promise<Res> => {
    const b = jsonBody({ password });
    return send(t, {
      method: 'POST',
      path: '/api/auth/login',
      body: b.body,
      headers: { ...b.headers, ...headers },
    });
  };
  const probe = (cookie: string): Promise<Res> => send(t, { path: PROBE, headers: { cookie } });

  beforeAll(async () => {
    home = tempHome('jig-auth-');
    const set = await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, `${PASSWORD}\n`);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe(
      `password set in ${join(home, 'config', 'access.yaml')}; browser sessions made before it have ended\n`,
    );
    const jig = await startJig({ home, args: ['--host', '0.0.0.0', '--port', '0'] });
    t = { port: Number(new URL(jig.url).port) };
  });

  it('wrote only the hash into access.yaml, kept the rest, and made it 0600', () => {
    // The CLI ran before the server's first start, so it made a small file; the server then
    // seeded nothing over it.
    const text = readFileSync(join(home, 'config', 'access.yaml'), 'utf8');
    expect(text).toMatch(/^password_hash: "\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+"$/m);
    expect(text).not.toContain(PASSWORD);
    expect(statSync(join(home, 'config', 'access.yaml')).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong or missing password, naming the field', async () => {
    expect(pick(await login('not it at all'))).toEqual(WRONG);
    const missing = await send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({}) });
    expect(missing.status).toBe(422);
    // The detail should name `body.password`; naming the field is the error handler's job
    // (src/server/error-handler.ts reads the issue path from where the zod provider does not put it).
    expect(missing.json).toMatchObject({ code: 'validation_failed' });
    expect(missing.json.detail).toMatch(/^body(\.password)?: /);
  });

  it('logs in: an HttpOnly, SameSite=Strict cookie that lasts session_expiry_days', async () => {
    const res = await login(PASSWORD);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['expires_at']);
    const days = (Date.parse(res.json.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(
      /^jig_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(pick(await probe(sessionCookie(res)))).toEqual(THROUGH);
    expect((await send(t, { path: '/api/health' })).json.session_expiry_days).toBe(7);
  });

  it('marks the cookie Secure when the request came over https (a TLS proxy says so)', async () => {
    const res = await login(PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('logs out: the session is deleted on the server, not only forgotten by the browser', async () => {
    const cookie = sessionCookie(await login(PASSWORD));
    const out = await send(t, { method: 'POST', path: '/api/auth/logout', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    expect(String(out.headers['set-cookie'])).toMatch(
      /^jig_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970/,
    );
    expect(pick(await probe(cookie))).toEqual(NOT_VALID);
    // Logging out without a session is harmless.
    expect((await send(t, { method: 'POST', path: '/api/auth/logout' })).status).toBe(204);
  });

  it('ends a session at its expiry', async () => {
    const cookie = sessionCookie(await login(PASSWORD));
    expect(pick(await probe(cookie))).toEqual(THROUGH);
    // Move every session's end into the past rather than wait for it.
    const db = new Database(join(home, 'run', 'jig.db'));
    try {
      db.prepare("UPDATE auth_sessions SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    } finally {
      db.close();
    }
    expect(pick(await probe(cookie))).toEqual({
      status: 401,
      json: { detail: 'the session has expired; log in again at /login', code: 'login_required' },
    });
    expect((await send(t, { path: '/', headers: { cookie, accept: HTML } })).status).toBe(401);
  });

  it('follows session_expiry_days edited in access.yaml, without a restart', async () => {
    const file = join(home, 'config', 'access.yaml');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before}session_expiry_days: 2\n`);
    expect((await send(t, { path: '/api/health' })).json.session_expiry_days).toBe(2);
    const res = await login(PASSWORD);
    expect(String(res.headers['set-cookie'])).toContain('; Max-Age=172800;');
    writeFileSync(file, before);
    expect((await send(t, { path: '/api/health' })).json.session_expiry_days).toBe(7);
  });

  it('logs in from the plain HTML form, and back to where the browser was going', async () => {
    const form = (body: string): Promise<Res> =>
      send(t, {
        method: 'POST',
        path: '/api/auth/login',
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: HTML,
          origin: `http://127.0.0.1:${(t as { port: number }).port}`,
        },
      });
    const ok = await form(
      `password=${encodeURIComponent(PASSWORD)}&next=${encodeURIComponent('/board?x=1')}`,
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/board?x=1');
    expect(pick(await probe(sessionCookie(ok)))).toEqual(THROUGH);
    // No open redirect: `next` stays on this server.
    for (const next of ['//evil.example/', 'http://evil.example/', '/\\evil.example'])
      expect(
        (await form(`password=${encodeURIComponent(PASSWORD)}&next=${encodeURIComponent(next)}`)).headers
          .location,
      ).toBe('/');
    const bad = await form('password=nope-nope&next=%2Fboard');
    expect(bad.status).toBe(401);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.text).toContain('<p role="alert"><strong>the password is not correct</strong></p>');
    expect(bad.text).toContain('<input type="hidden" name="next" value="/board">');
    // With a session, the login page sends the browser on.
    const again = await send(t, {
      path: '/login?next=%2Fitems',
      headers: { cookie: sessionCookie(ok), accept: HTML },
    });
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/items');
  });

  it('ends every session when the password changes, and takes the new one at once', async () => {
    const cookie = sessionCookie(await login(PASSWORD));
    const next = 'second password';
    expect((await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, `${next}\n`)).code).toBe(0);
    expect(pick(await probe(cookie))).toEqual(NOT_VALID);
    expect(pick(await login(PASSWORD))).toEqual(WRONG);
    const fresh = await login(next);
    expect(fresh.status).toBe(200);

    const cleared = await runJig(['admin', 'password', '--clear', '--json'], { JIG_HOME: home });
    expect(JSON.parse(cleared.stdout)).toEqual({
      password_set: false,
      file: join(home, 'config', 'access.yaml'),
    });
    expect(pick(await probe(sessionCookie(fresh)))).toEqual(NOT_VALID);
    expect(pick(await login(next))).toEqual({
      status: 409,
      json: {
        detail: "no password is set; set one with `jig admin password` on the server's machine",
        code: 'password_not_set',
      },
    });
    expect((await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, PASSWORD)).code).toBe(0);
  });
});

describe('failed-login limit', () => {
  it('stops a peer after five failures, right password included, and says when to try again', async () => {
    const home = tempHome('jig-auth-');
    expect((await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, `${PASSWORD}\n`)).code).toBe(
      0,
    );
    const jig = await startJig({ home, args: ['--host', '0.0.0.0', '--port', '0'] });
    const t = { port: Number(new URL(jig.url).port) };
    const login = (password: string): Promise<Res> =>
      send(t, { method: 'POST', path: '/api/auth/login', ...jsonBody({ password }) });

    // A success resets the count: four failures, a success, then five more failures are allowed.
    for (let i = 0; i < 4; i++) expect(pick(await login('wrong guess'))).toEqual(WRONG);
    expect((await login(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect(pick(await login('wrong guess'))).toEqual(WRONG);

    for (const password of ['wrong guess', PASSWORD]) {
      const res = await login(password);
      expect(res.status).toBe(429);
      const wait = res.json.retry_after_s as number;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(900);
      expect(res.json).toEqual({
        detail: `too many failed logins from this address; try again in ${wait} s`,
        code: 'too_many_attempts',
        retry_after_s: wait,
      });
      expect(res.headers['retry-after']).toBe(String(wait));
    }
    // Tokens are not passwords: the MCP token still works from the locked address.
    const mcp = readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim();
    expect(pick(await send(t, { path: PROBE, headers: { authorization: `Bearer ${mcp}` } }))).toEqual(
      THROUGH,
    );
  });
});

describe('jig admin password', () => {
  it('keeps every comment of a seeded access.yaml and changes only password_hash', async () => {
    const home = tempHome('jig-auth-');
    const jig = await startJig({ home });
    await jig.stop();
    const file = join(home, 'config', 'access.yaml');
    const seeded = readFileSync(join(repoRoot, 'defaults', 'config', 'access.yaml'), 'utf8');
    expect(readFileSync(file, 'utf8')).toBe(seeded);
    expect((await runJig(['admin', 'password', '--stdin'], { JIG_HOME: home }, 'longenough\r\n')).code).toBe(
      0,
    );
    const after = readFileSync(file, 'utf8');
    const changed = after.split('\n').filter((l, i) => l !== seeded.split('\n')[i]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^password_hash: "\$scrypt\$/);
    expect((await runJig(['admin', 'password', '--clear'], { JIG_HOME: home })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(seeded);
  });

  it('refuses a short password, a missing terminal, and a broken file, changing nothing', async () => {
    const home = tempHome('jig-auth-');
    const env = { JIG_HOME: home };
    expect(await runJig(['admin', 'password', '--stdin'], env, 'short\n')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jig: the password needs at least 8 characters; nothing was changed\n',
    });
    expect(await runJig(['admin', 'password'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jig: no terminal to ask in: pass the password on stdin with --stdin\n',
    });
    const file = join(home, 'config', 'access.yaml');
    expect(() => readFileSync(file)).toThrow();
    mkdirSync(join(home, 'config'));
    writeFileSync(file, 'bind: [unclosed\n');
    const broken = await runJig(['admin', 'password', '--stdin'], env, 'longenough\n');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^jig: .*access\.yaml:\d+:\d+: .*; fix it first \(nothing was changed\)\n$/,
    );
    expect(readFileSync(file, 'utf8')).toBe('bind: [unclosed\n');
  });
});
