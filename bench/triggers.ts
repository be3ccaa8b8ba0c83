/**
 * POST /api/triggers beside a bare Fastify + SQLite insert route, and GET /api/work-items over
 * 10 000+ items beside a raw query + JSON.stringify route. Both servers run in this process, the
 * same `synchronous` setting on both stores; the load comes from autocannon in a child process
 * (bench/load.ts). Baseline and Jig runs alternate, so drift on a shared machine hits both alike;
 * the figure is the total over the rounds.
 * Run: npm run build && npm run bench -- triggers   (BENCH_SECONDS, BENCH_ROUNDS)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { startJigWithRepo } from './jig-with-repo.js';
import { record } from './figures.js';
import { line, load, type Load, type LoadResult } from './load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ITEMS = 10_000;

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

function total(runs: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r), 0);
  return {
    rps: sum((r) => r.rps) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    failed: sum((r) => r.failed),
    ok: sum((r) => r.ok),
  };
}

/** Alternates baseline and Jig runs; prints each pair's totals and their ratio. */
async function compare(title: string, key: string, base: Load, jig: Load): Promise<void> {
  const b: LoadResult[] = [];
  const j: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    b.push(await load(base));
    j.push(await load(jig));
  }
  const bt = total(b);
  const jt = total(j);
  console.log(title);
  console.log(line('baseline', bt));
  console.log(line('jig', jt));
  const rounds = b.map((x, i) => (j[i]!.rps / x.rps).toFixed(2)).join(', ');
  console.log(`ratio jig/baseline throughput ${(jt.rps / bt.rps).toFixed(2)}x   (rounds: ${rounds})`);
  record(key, jt.rps / bt.rps);
}

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const { jig, repo } = await startJigWithRepo(root);
  const base = await baseline(root);
  const body = JSON.stringify({ title: 'Bump dependencies', repo });

  console.log(`## ${ROUNDS} rounds of ${SECONDS} s each, 10 connections, load from a child process`);
  // 10 000 items in Jig's store, then page the newest 100 of them; the triggers run after.
  const count = async (): Promise<number> =>
    ((await (await fetch(`${jig.url}/api/work-items?limit=1`)).json()) as { total: number }).total;
  for (let i = await count(); i < ITEMS; i++) {
    const r = await fetch(`${jig.url}/api/triggers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await r.arrayBuffer();
  }
  const ro = base.readFrom(join(root, 'home', 'run', 'jig.db'));
  await compare(
    `GET newest 100 of ${await count()} items vs a raw query + JSON.stringify`,
    'listing',
    { url: `${base.url}/list`, seconds: SECONDS },
    { url: `${jig.url}/api/work-items?limit=100`, seconds: SECONDS },
  );

  await compare(
    'POST /api/triggers vs a bare Fastify + SQLite insert',
    'triggers',
    { url: `${base.url}/insert`, method: 'POST', body, seconds: SECONDS },
    { url: `${jig.url}/api/triggers`, method: 'POST', body, seconds: SECONDS },
  );

  ro.close();
  await jig.close();
  await base.app.close();
  base.db.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
