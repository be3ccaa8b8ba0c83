/**
 * POST /api/triggers throughput and latency beside a bare Fastify + SQLite insert route, and
 * GET /api/work-items over 10 000 items beside a raw query + JSON.stringify route, in one process
 * with autocannon on loopback. Run: npm run build && npm run bench -- triggers
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { startServer } from '../src/server/main.js';
import { benchRepo } from './git-repo.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;

async function baseline(dir: string) {
  const db = new Database(join(dir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, repo TEXT, status TEXT, created_at TEXT); CREATE INDEX items_created ON items (created_at, id)',
  );
  const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?)');
  // The list baseline reads Jig's own table with the query Jig runs, so the ratio is Jig's overhead.
  let list: Database.Statement | null = null;
  let n = 0;
  const app = Fastify();
  app.post('/insert', async (req, reply) => {
    const b = req.body as { title: string; repo: string };
    const row = {
      id: `b${++n}`,
      title: b.title,
      repo: b.repo,
      status: 'paused',
      created_at: new Date().toISOString(),
    };
    insert.run(row.id, row.title, row.repo, row.status, row.created_at);
    return reply.code(201).send(row);
  });
  app.get('/list', async (_req, reply) =>
    reply.type('application/json').send(JSON.stringify({ items: list!.all() })),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    db,
    readFrom(jigDb: string) {
      const ro = new Database(jigDb, { readonly: true });
      list = ro.prepare(
        'SELECT * FROM work_items WHERE archived_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 100',
      );
      return ro;
    },
  };
}

async function run(name: string, opts: autocannon.Options): Promise<autocannon.Result> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const bad = r.non2xx + r.errors;
  console.log(
    `${name.padEnd(36)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(3)} ms   p99 ${String(r.latency.p99).padStart(3)} ms${bad ? `   (${bad} failed)` : ''}`,
  );
  return r;
}

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const repo = benchRepo(root);
  const base = await baseline(root);
  const jig = await startServer({ host: '127.0.0.1', port: 0, env: { JIG_HOME: join(root, 'home') } });
  const connect = await fetch(`${jig.url}/api/repos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: repo, test_command: '' }),
  });
  if (connect.status !== 201) throw new Error(`connect failed: ${connect.status}`);
  const body = JSON.stringify({ title: 'Bump dependencies', repo });
  const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body };

  console.log(`## POST: ${CONNECTIONS} connections, ${SECONDS} s each`);
  const b1 = await run('baseline: fastify + sqlite insert', { url: `${base.url}/insert`, ...post });
  const j1 = await run('jig: POST /api/triggers', { url: `${jig.url}/api/triggers`, ...post });
  console.log(`ratio jig/baseline throughput ${(j1.requests.average / b1.requests.average).toFixed(2)}x`);

  // Bring both stores to 10 000 items, then page the newest 100.
  const jigCount = Number(
    ((await (await fetch(`${jig.url}/api/work-items?limit=1`)).json()) as { total: number }).total,
  );
  for (let i = jigCount; i < 10_000; i++) {
    const r = await fetch(`${jig.url}/api/triggers`, { ...post });
    await r.arrayBuffer();
  }
  const ro = base.readFrom(join(root, 'home', 'run', 'jig.db'));
  const jigTotal = ((await (await fetch(`${jig.url}/api/work-items?limit=1`)).json()) as { total: number })
    .total;
  console.log(`## GET newest 100 of ${jigTotal} items`);
  const b2 = await run('baseline: raw query + JSON.stringify', { url: `${base.url}/list` });
  const j2 = await run('jig: GET /api/work-items', { url: `${jig.url}/api/work-items?limit=100` });
  console.log(`ratio jig/baseline throughput ${(j2.requests.average / b2.requests.average).toFixed(2)}x`);

  ro.close();
  await jig.close();
  await base.app.close();
  base.db.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
