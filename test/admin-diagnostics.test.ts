import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arch, platform, release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * GET /api/admin/diagnostics (the board's About and Copy diagnostics): every field with the real
 * values of a server whose home holds credentials (tokens, a password, a webhook with a secret, a
 * release feed whose URL carries a password and a token), none of which the answer may carry.
 */

const PASSWORD = 'correct horse battery staple';
const FEED_PASSWORD = 'feed-pa55word';
const FEED_TOKEN = 'feed-t0ken';
const HOOK_SECRET = 'hook-s3cret-0123456789';

let jig: JigProcess;
let feed: Server;
let feedUrl: string;
/** The feed answers 503 while this is false. */
let feedUp = false;

beforeAll(async () => {
  // A private feed: it answers only with the URL's user and password as basic authentication.
  const basic = `Basic ${Buffer.from(`updates:${FEED_PASSWORD}`).toString('base64')}`;
  feed = createServer((req, res) => {
    if (!feedUp || req.headers.authorization !== basic || !req.url?.includes(FEED_TOKEN)) {
      res.writeHead(feedUp ? 401 : 503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'jig', 'dist-tags': { latest: '2.1.0' } }));
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  const port = (feed.address() as AddressInfo).port;
  feedUrl = `http://updates:${FEED_PASSWORD}@127.0.0.1:${port}/jig?token=${FEED_TOKEN}&tag=x`;
  jig = await startJig({ env: { JIG_UPDATE_FEED: feedUrl } });
});
afterAll(async () => {
  feed.close();
  await cleanupAll();
});

async function call(method: string, path: string, body?: unknown) {
  const r = await http(`${jig.url}${path}`, { method, body });
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.json;
}

describe('GET /api/admin/diagnostics', () => {
  it('answers what a bug report needs, with real values, and no credential of the home', async () => {
    await call('PUT', '/api/access/password', { password: PASSWORD });
    await call('PUT', '/api/notify', {
      enabled: false,
      url: `https://hooks.example/${HOOK_SECRET}`,
      secret: HOOK_SECRET,
    });
    await call('POST', '/api/repos', { path: makeRepo(), test_command: '', setup_command: '' });
    const repos = (await call('GET', '/api/repos')).repos as { path: string }[];
    const repo = repos[0]!.path;
    for (const title of ['One', 'Two'])
      await call('POST', '/api/work-items', { title, repo, chain: 'manual' });
    // A feed that fails is named without its credentials in the refusal About shows.
    const down = await http(`${jig.url}/api/update/check`, { method: 'POST' });
    expect(down.status).toBe(502);
    expect(down.json.code).toBe('update_feed_failed');
    expect(down.json.detail).toMatch(
      /^the release feed http:\/\/updates@127\.0\.0\.1:\d+\/jig\?tag=x did not answer: HTTP 503$/,
    );
    for (const secret of [FEED_PASSWORD, FEED_TOKEN]) expect(down.text).not.toContain(secret);
    feedUp = true;
    await call('POST', '/api/update/check');
    const harnesses = (await call('GET', '/api/harnesses')).harnesses as Record<string, unknown>[];
    const health = await call('GET', '/api/health');

    const r = await http(`${jig.url}/api/admin/diagnostics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const d = r.json;
    const shownFeed = feedUrl.replace(`:${FEED_PASSWORD}`, '').replace(`token=${FEED_TOKEN}&`, '');
    expect({ ...d, server: { ...d.server, uptime_s: 0 } }).toEqual({
      version: '2.0.0',
      installed: '2.0.0',
      node: process.version,
      platform: `${platform()} ${arch()}`,
      os_release: release(),
      home: jig.home,
      config_dir: join(jig.home, 'config'),
      store:
        health.store === 'sqlite'
          ? { kind: 'sqlite', location: join(jig.home, 'run', 'jig.db'), schema_version: expect.any(Number) }
          : {
              kind: 'postgres',
              location: expect.stringMatching(/^postgres/),
              schema_version: expect.any(Number),
            },
      server: {
        role: 'serve',
        bind: '127.0.0.1',
        port: Number(new URL(jig.url).port),
        pid: jig.pid,
        uptime_s: 0,
        supervised: false,
        password_set: true,
        allowed_hosts: [],
      },
      health: { status: 'ok', problems: [], intake_off: false },
      update: {
        package: 'jig',
        running: '2.0.0',
        installed: '2.0.0',
        channel: 'stable',
        feed: shownFeed,
        checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        latest: '2.1.0',
        update_available: true,
        dist_tags: { latest: '2.1.0' },
        apply: 'jig admin update --yes',
      },
      harnesses: harnesses.map((h) => ({
        id: h.id,
        provider: h.provider,
        enabled: h.enabled,
        installed: h.installed,
        version: h.version,
      })),
      counts: { items: { paused: 2 }, archived: 0, repos: 1, workspaces: 0, addons: 0, workers: 1 },
      index: health.index,
    });
    expect(d.store.schema_version).toBeGreaterThan(0);
    expect(d.harnesses.length).toBeGreaterThan(0);
    expect(shownFeed).toMatch(/^http:\/\/updates@127\.0\.0\.1:\d+\/jig\?tag=x$/);

    // The home's credentials, and every secret the test gave the server: none is in the answer.
    const text = r.text;
    const mcp = readFileSync(join(jig.home, 'run', 'mcp-token'), 'utf8').trim();
    const trigger = readFileSync(join(jig.home, 'run', 'trigger-token'), 'utf8').trim();
    const access = readFileSync(join(jig.home, 'config', 'access.yaml'), 'utf8');
    const hash = /password_hash: (\S+)/.exec(access)![1]!;
    for (const secret of [mcp, trigger, hash, PASSWORD, FEED_PASSWORD, FEED_TOKEN, HOOK_SECRET, 'scrypt'])
      expect(text, secret).not.toContain(secret);
  });

  it('strips the feed credentials from GET /api/update too', async () => {
    const u = await call('GET', '/api/update');
    expect(u.feed).not.toContain(FEED_PASSWORD);
    expect(u.feed).not.toContain(FEED_TOKEN);
    expect(u.apply).toBe('jig admin update --yes');
  });
});
