import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { events, until } from './helpers/engine.js';
import { makeRepo } from './helpers/git.js';
import { usePostgres } from './helpers/postgres.js';
import { cleanupAll, http, startJig } from './helpers/server.js';
import { eventually } from './helpers/eventually.js';

/*
 * `jig serve` on PostgreSQL (JIG_DATABASE_URL, issue 27): the seeded manual chain from filing to
 * completion, the event stream gap-free, and a restart finding everything where it was.
 */

const postgres = usePostgres();

afterAll(async () => {
  await cleanupAll();
});

describe('jig serve on PostgreSQL', () => {
  it('runs an item of the manual chain to completion, and a restart reads it back', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const url = await server.createDatabase(`jig_serve_${process.pid}`);
    const env = { JIG_DATABASE_URL: url };
    const jig = await startJig({ env });
    // The log is on stderr, a pipe of its own: it can arrive after the listening line on stdout.
    await eventually(() => jig.stderr().includes('"msg":"store: PostgreSQL"'), { what: 'the store line' });
    const repo = makeRepo({ 'README.md': '# r\n' });
    const connect = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: { path: repo, test_command: '', setup_command: '' },
    });
    expect(connect.status, connect.text).toBe(201);
    // PostgreSQL's text holds no NUL: a description pasted with one is kept with U+FFFD in its
    // place, and the 201, a read and a replay of the key all answer that same stored text.
    const trigger = () =>
      http(`${jig.url}/api/triggers`, {
        method: 'POST',
        headers: { 'idempotency-key': 'nul-1' },
        body: { title: 'With a NUL', repo, chain: 'manual', description: 'before\0after' },
      });
    const first = await trigger();
    expect(first.status, first.text).toBe(201);
    expect(first.json.description).toBe('before\uFFFDafter');
    const read = (await http(`${jig.url}/api/work-items/${first.json.id}`)).json;
    const replay = await trigger();
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(replay.json).toEqual(first.json);
    expect(read).toMatchObject({ id: first.json.id, description: 'before\uFFFDafter' });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'On PostgreSQL', repo, chain: 'manual', start: true },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id as string;
    const atGate = await until(jig, id, (i) => i.status === 'stopped' && i.current_node === 'change');
    expect(atGate.status).toBe('stopped');
    writeFileSync(join(jig.home, 'run', 'worktrees', id, 'NOTES.md'), 'a change\n');
    const approved = await http(`${jig.url}/api/work-items/${id}/gates/change/approve`, {
      method: 'POST',
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    await until(jig, id, (i) => i.status === 'completed');
    const seqs = (await events(jig, id)).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(5);
    // The whole log, read from the database itself: gap-free from 1.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const every = (await c.query<{ seq: string }>('SELECT seq FROM events ORDER BY seq')).rows.map((r) =>
      Number(r.seq),
    );
    await c.end();
    expect(every).toEqual(Array.from({ length: every.length }, (_, i) => i + 1));
    expect(every).toEqual(expect.arrayContaining(seqs));

    await jig.stop();
    const again = await startJig({ home: jig.home, env });
    const item = (await http(`${again.url}/api/work-items/${id}`)).json;
    expect(item).toMatchObject({ id, status: 'completed', title: 'On PostgreSQL' });
    const health = (await http(`${again.url}/api/health`)).json;
    expect(health).toMatchObject({ status: 'ok', store: 'postgres' });
    // Storage measures the database on its server, not a file in run/.
    const storage = (await http(`${again.url}/api/storage`)).json;
    expect(storage.database_bytes).toBeGreaterThan(1_000_000);
  });

  it('refuses to start on a JIG_DATABASE_URL that is no PostgreSQL URL', async () => {
    await expect(startJig({ env: { JIG_DATABASE_URL: 'mysql://x' } })).rejects.toThrow(
      /JIG_DATABASE_URL is not a PostgreSQL URL/,
    );
  });
});
