import { createHmac } from 'node:crypto';
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { makeRepo } from './helpers/git.js';
import { listenLoopback } from './helpers/mock-http.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';
import { bootClocked, closeClocked, type ClockedJig } from './helpers/engine-clock.js';
import type { ManualClock } from '../src/runtime/clock.js';
import { resolveHomePaths } from '../src/runtime/home/paths.js';

/*
 * Notifications (docs/notifications.md) on a real server: a recording webhook on loopback receives
 * signed messages when an item waits at a gate and completes, a 500 is retried, a webhook that
 * keeps failing ends in `notification_failed`; the settings route never shows the URL or secret
 * back and keeps the file's comments; a test message answers what happened.
 */

interface Hook {
  url: string;
  got: { headers: IncomingMessage['headers']; body: string }[];
  /** Statuses to answer, in order; 200 once used up. */
  answers: number[];
  close(): Promise<void>;
}

async function startHook(): Promise<Hook> {
  const h: Hook = { url: '', got: [], answers: [], close: () => new Promise((r) => server.close(() => r())) };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      h.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(h.answers.shift() ?? 200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  h.url = `${await listenLoopback(server)}/hooks/T0K3N-in-path`;
  return h;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await closeClocked();
  for (const c of closers.splice(0)) await c();
  await cleanupAll();
});

const SECRET = 'a-secret-of-sixteen-or-more';

function homeWith(notify: Record<string, unknown> | string): { home: string; repo: string } {
  const home = tempHome();
  const repo = makeRepo({ 'README.md': '# app\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'gated.yaml'), GATED_CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'gated' }] }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  writeFileSync(join(home, 'config', 'notify.yaml'), typeof notify === 'string' ? notify : stringify(notify));
  return { home, repo };
}

async function serve(
  notify: Record<string, unknown> | string,
): Promise<{ jig: JigProcess; repo: string; home: string }> {
  const { home, repo } = homeWith(notify);
  const jig = await startJig({ home });
  return { jig, repo, home };
}

/**
 * The same home served in-process on a ManualClock: the held messages and the retries' backoff
 * wait for the test to move the clock, not for real seconds.
 */
async function serveClocked(
  notify: Record<string, unknown> | string,
): Promise<{ jig: ClockedJig; repo: string; home: string }> {
  const { home, repo } = homeWith(notify);
  return { jig: await bootClocked(home), repo, home };
}

/** Waits for `n` messages, moving the clock a second a try so held and retried ones fall due. */
async function receivedMoving(hook: Hook, n: number, clock: ManualClock): Promise<Hook['got']> {
  await eventually(
    async () => {
      if (hook.got.length >= n) return true;
      await clock.advance(1_000);
      return false;
    },
    { what: `${n} message(s) at the hook`, everyMs: 50 },
  );
  return hook.got;
}

async function received(hook: Hook, n: number): Promise<Hook['got']> {
  await eventually(() => hook.got.length >= n, { what: `${n} message(s) at the hook`, everyMs: 50 });
  return hook.got;
}

describe('notifications', () => {
  it('posts a signed message at the gate and at completion, with a link to the item', async () => {
    const hook = await startHook();
    closers.push(() => hook.close());
    const { jig, repo } = await serveClocked({
      enabled: true,
      url: hook.url,
      secret: SECRET,
      base_url: 'https://jig.example/',
      events: ['gate_requested', 'work_item_completed'],
    });
    const filed = await post(jig, '/api/work-items', { title: 'Ping me', repo, start: true });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id;
    await until(jig, id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    const [gate] = await received(hook, 1);
    expect(gate!.headers['x-jig-event']).toBe('gate_requested');
    expect(gate!.headers['x-jig-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(gate!.body).digest('hex')}`,
    );
    expect(JSON.parse(gate!.body)).toEqual({
      work_item_id: id,
      title: 'Ping me',
      type: 'gate_requested',
      gate: 'review',
      reason: 'Look at out.txt',
      repo,
      url: `https://jig.example/work-items/${id}`,
      at: expect.any(String),
      text: `Jig: Ping me waits for your approval at gate review\nLook at out.txt\nhttps://jig.example/work-items/${id}`,
    });
    expect((await post(jig, `/api/work-items/${id}/gates/review/approve`)).status).toBe(200);
    await until(jig, id, (i) => i.status === 'completed');
    // The completion falls in the item's 10 s window: it is held until the clock passes it.
    expect(hook.got).toHaveLength(1);
    const got = await receivedMoving(hook, 2, jig.clock);
    expect(got.map((g) => JSON.parse(g.body).type)).toEqual(['gate_requested', 'work_item_completed']);
  });

  it('retries a 500, and after three failures records notification_failed without the URL', async () => {
    const hook = await startHook();
    closers.push(() => hook.close());
    hook.answers.push(500);
    const { jig, repo, home } = await serveClocked({ enabled: true, url: hook.url, format: 'slack' });
    const one = await post(jig, '/api/work-items', { title: 'Retry me', repo, start: true });
    await until(jig, one.json.id, (i) => i.status === 'stopped');
    const got = await receivedMoving(hook, 2, jig.clock);
    expect(got.map((g) => g.body)).toEqual([
      JSON.stringify({
        text: `Jig: Retry me waits for your approval at gate review\nLook at out.txt\njig view show ${one.json.id}`,
      }),
      JSON.stringify({
        text: `Jig: Retry me waits for your approval at gate review\nLook at out.txt\njig view show ${one.json.id}`,
      }),
    ]);
    expect(got[0]!.headers['x-jig-signature']).toBeUndefined();

    hook.answers.push(503, 503, 503);
    const two = await post(jig, '/api/work-items', { title: 'Fail me', repo, start: true });
    await until(jig, two.json.id, (i) => i.status === 'stopped');
    const failed = await eventually(
      async () => {
        const found = (await events(jig, two.json.id)).filter((e) => e.type === 'notification_failed');
        if (found.length > 0) return found;
        await jig.clock.advance(1_000);
        return false;
      },
      { what: 'a notification_failed event', everyMs: 50 },
    );
    expect(failed.map((e) => e.payload)).toEqual([
      { event: 'gate_requested', attempts: 3, status: 503, reason: 'the webhook answered 503' },
    ]);
    expect(hook.got).toHaveLength(5);
    expect(JSON.stringify(await events(jig, two.json.id))).not.toContain('T0K3N');
    expect(readFileSync(resolveHomePaths({ JIG_HOME: home }).serverLogPath, 'utf8')).not.toContain('T0K3N');
  });

  it('settings: never shows the URL or secret, keeps comments, refuses a bad value naming it, and sends a test', async () => {
    const hook = await startHook();
    closers.push(() => hook.close());
    const { jig, home } = await serve('# who hears of it\nenabled: false # off for now\n');
    const url = `${jig.url}/api/notify`;
    expect((await http(url)).json).toEqual({
      enabled: false,
      url_set: false,
      secret_set: false,
      format: 'json',
      chat_id: null,
      base_url: null,
      events: ['gate_requested', 'work_item_needs_human'],
      problem: null,
    });
    const test0 = await post(jig, '/api/notify/test');
    expect(test0.status).toBe(409);
    expect(test0.json.code).toBe('notify_not_configured');

    const put = await http(url, { method: 'PUT', body: { enabled: true, url: hook.url, secret: SECRET } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ enabled: true, url_set: true, secret_set: true });
    expect(put.text).not.toContain('T0K3N');
    expect(put.text).not.toContain(SECRET);
    const file = join(home, 'config', 'notify.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# who hears of it');
    expect(text).toContain('enabled: true # off for now');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const bad = await http(url, { method: 'PUT', body: { format: 'telegram' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({
      code: 'notify_invalid',
      detail: 'notify.yaml would not load: chat_id: format telegram needs the chat_id to write to',
    });
    const creds = await http(url, { method: 'PUT', body: { url: 'https://user:pass@hooks.example/x' } });
    expect(creds.status).toBe(422);
    expect(creds.json.detail).toBe('notify.yaml would not load: url: no user or password in the URL');
    const unknown = await http(url, { method: 'PUT', body: { events: ['nope'] } });
    expect(unknown.status).toBe(422);
    expect(readFileSync(file, 'utf8')).toBe(text);

    const test = await post(jig, '/api/notify/test');
    expect(test.json).toEqual({ sent: true, status: 200, attempts: 1, error: null });
    expect(JSON.parse(hook.got[0]!.body)).toMatchObject({ type: 'test', title: 'Notifications' });
    hook.answers.push(404);
    expect((await post(jig, '/api/notify/test')).json).toEqual({
      sent: false,
      status: 404,
      attempts: 1,
      error: 'the webhook answered 404',
    });
  });
});
