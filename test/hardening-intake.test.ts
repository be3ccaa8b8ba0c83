import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/* Issue 14, finding 8: the small ones around filing work and saving policy. */

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  http(`${jig.url}${path}`, { method, body, headers });

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo({ 'README.md': '# demo\n', 'docs/spec.md': '# the spec\n' });
  expect((await api('POST', '/api/repos', { path: repo, test_command: '' })).status).toBe(201);
});
afterAll(cleanupAll);

async function count(): Promise<number> {
  return (await api('GET', '/api/work-items?limit=1&archived=all')).json.total;
}

describe('titles with invisible characters', () => {
  it.each([
    ['a bidi override', 'Approve \u202Egnp.exe'],
    ['a zero-width space', 'Fix\u200Bit'],
    ['an isolate', 'a\u2066b\u2069'],
  ])('refuses %s on POST /api/triggers, POST /api/work-items and PATCH', async (_what, title) => {
    const before = await count();
    const refused = { detail: 'the title is plain text', code: 'invalid_title', field: 'title' };
    const t = await api('POST', '/api/triggers', { title, repo });
    expect([t.status, t.json]).toEqual([422, refused]);
    const c = await api('POST', '/api/work-items', { title, repo });
    expect([c.status, c.json]).toEqual([422, refused]);
    expect(await count()).toBe(before);
    const item = (await api('POST', '/api/triggers', { title: 'Plain', repo })).json;
    const p = await api('PATCH', `/api/work-items/${item.id}`, { title });
    expect([p.status, p.json]).toEqual([422, refused]);
    expect((await api('GET', `/api/work-items/${item.id}`)).json.title).toBe('Plain');
  });

  it('keeps emoji sequences and right-to-left text', async () => {
    const title = 'Ship 👨‍👩‍👧 — می‌خواهم';
    const r = await api('POST', '/api/triggers', { title, repo });
    expect([r.status, r.json.title]).toEqual([201, title]);
  });
});

describe('POST /api/triggers with an Idempotency-Key', () => {
  const body = { title: 'Bump the lockfile', repo, description: 'from CI run 41' };

  it('files once: a repeat answers the first item, marked as replayed', async () => {
    const before = await count();
    const key = { 'idempotency-key': 'ci-run-41' };
    const first = await api('POST', '/api/triggers', { ...body, repo }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBe(null);
    const again = await api('POST', '/api/triggers', { ...body, repo }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await count()).toBe(before + 1);
    const events = (await api('GET', `/api/work-items/${first.json.id}/events`)).json.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['work_item_created']);
  });

  it('refuses the same key with another body, and files nothing', async () => {
    const key = { 'idempotency-key': 'ci-run-42' };
    expect((await api('POST', '/api/triggers', { ...body, repo }, key)).status).toBe(201);
    const before = await count();
    const other = await api('POST', '/api/triggers', { ...body, repo, title: 'Something else' }, key);
    expect([other.status, other.json]).toEqual([
      422,
      {
        code: 'idempotency_key_reused',
        detail:
          'Idempotency-Key ci-run-42 was used within the last 24 hours for a different request; send a new key for a new item',
      },
    ]);
    expect(await count()).toBe(before);
  });

  it('files one item for many requests sent at once with one key', async () => {
    const before = await count();
    const key = { 'idempotency-key': 'delivery-7f3a' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api('POST', '/api/triggers', { ...body, repo }, key)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    expect(await count()).toBe(before + 1);
  });

  it('refuses a key that is not visible ASCII, naming the header', async () => {
    const r = await api('POST', '/api/triggers', { ...body, repo }, { 'idempotency-key': 'two words' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      code: 'validation_failed',
      issues: [{ field: 'headers.idempotency-key', message: 'is 1 to 255 visible ASCII characters' }],
    });
  });
});

describe('a filing that fails after its checks', () => {
  it('answers 502 intake_failed, leaves no attachment behind and logs the cause', async () => {
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    db.exec(
      "CREATE TRIGGER refuse_doomed BEFORE INSERT ON work_items WHEN NEW.title = 'Doomed' BEGIN SELECT RAISE(ABORT, 'disk said no'); END",
    );
    db.close();
    try {
      const r = await api('POST', '/api/work-items', {
        title: 'Doomed',
        repo,
        attachments: { spec: { path: 'docs/spec.md' }, plan: { text: '1. do it' } },
      });
      expect([r.status, r.json]).toEqual([
        502,
        { code: 'intake_failed', detail: 'intake failed: disk said no' },
      ]);
      const dir = join(jig.home, 'run', 'attachments');
      const ids = readdirSync(dir);
      for (const id of ids) expect(readdirSync(join(dir, id)).length, id).toBeGreaterThan(0);
      const known = (await api('GET', '/api/work-items?limit=100&archived=all')).json.items.map(
        (i: { id: string }) => i.id,
      );
      expect(ids.filter((id) => !known.includes(id))).toEqual([]);
      const log = readFileSync(join(jig.home, 'run', 'logs', 'server.log'), 'utf8');
      const line = log.split('\n').find((l) => l.includes('answered 502 intake_failed'));
      expect(line, 'a log line for the 502').toBeDefined();
      expect(JSON.parse(line!).err).toMatchObject({
        message: 'disk said no',
        code: 'SQLITE_CONSTRAINT_TRIGGER',
      });
    } finally {
      const db2 = new Database(join(jig.home, 'run', 'jig.db'));
      db2.exec('DROP TRIGGER refuse_doomed');
      db2.close();
    }
  });
});

describe('PUT /api/policy with If-Match', () => {
  it('saves when the file is the one read, refuses with 409 when it changed since', async () => {
    const read = await api('GET', '/api/policy');
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const { active_count: _ignored, ...policy } = read.json;
    const saved = await api('PUT', '/api/policy', { ...policy, max_concurrent: 4 }, { 'if-match': etag });
    expect(saved.status).toBe(200);
    const newTag = saved.headers.get('etag')!;
    expect(newTag).not.toBe(etag);
    expect((await api('GET', '/api/policy')).headers.get('etag')).toBe(newTag);

    const file = join(jig.home, 'config', 'policy.yaml');
    const text = readFileSync(file, 'utf8');
    // A second editor that read before the save above.
    const stale = await api('PUT', '/api/policy', { ...policy, max_concurrent: 7 }, { 'if-match': etag });
    expect([stale.status, stale.json]).toEqual([
      409,
      {
        code: 'policy_changed',
        detail: `policy.yaml changed since it was read (If-Match ${etag}); read it again (GET /api/policy) and reapply your change`,
        etag: newTag,
      },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const any = await api('PUT', '/api/policy', { ...policy, max_concurrent: 3 }, { 'if-match': '*' });
    expect(any.status).toBe(200);
    expect((await api('GET', '/api/policy')).json.max_concurrent).toBe(3);
  });
});

describe('temp files an interrupted config write left', () => {
  it('are removed at start; a live writer’s temp is kept', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config', 'chains'), { recursive: true });
    const dead = join(home, 'config', '.policy.yaml.4194999.0badc0de.tmp');
    const deadChain = join(home, 'config', 'chains', '.fast.yaml.4194999.00c0ffee.tmp');
    const live = join(home, 'config', `.access.yaml.${process.pid}.12345678.tmp`);
    for (const f of [dead, deadChain, live]) writeFileSync(f, '');
    const other = await startJig({ home });
    expect([existsSync(dead), existsSync(deadChain), existsSync(live)]).toEqual([false, false, true]);
    const log = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain(
      'removed 2 temp file(s) an interrupted write left behind: .policy.yaml.4194999.0badc0de.tmp, chains/.fast.yaml.4194999.00c0ffee.tmp',
    );
    await other.stop();
  });
});
