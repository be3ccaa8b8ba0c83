/**
 * How long after a filing's 201 a live WebSocket subscriber hears of the item: `LAT_CLIENTS` (50)
 * subscribers on `/api/ws/events` while `LAT_ITEMS` (1 000) items are filed over HTTP, 10 at a
 * time, from a child process that also holds the subscribers (bench/ws-latency-clients.ts), so
 * the 201 and the event are timed on one clock. The baseline, in the same process: a bare Fastify
 * + SQLite insert route that sends each new row to every `ws` client as soon as it is written.
 * Run: npm run bench -- ws-latency   (BENCH_ROUNDS, LAT_CLIENTS, LAT_ITEMS)
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { startJigWithRepo } from './jig-with-repo.js';
import { record } from './figures.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.LAT_CLIENTS ?? 50);
const ITEMS = Number(process.env.LAT_ITEMS ?? 1000);

interface Report {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  missing: number;
}

async function baseline(dir: string) {
  const db = new Database(join(dir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, repo TEXT, created_at TEXT)');
  const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?)');
  const sockets = new Set<WebSocket>();
  let n = 0;
  const app = Fastify();
  app.post('/insert', async (req, reply) => {
    const b = req.body as { title: string; repo: string };
    const row = { id: `b${++n}`, title: b.title, repo: b.repo, created_at: new Date().toISOString() };
    insert.run(row.id, row.title, row.repo, row.created_at);
    // The frame Jig sends for the event (server/event-stream.ts), the event cut to what is read.
    const text = JSON.stringify({
      type: 'event',
      event: { seq: n, type: 'work_item_created', work_item_id: row.id },
    });
    for (const s of sockets) s.send(text);
    return reply.code(201).send(row);
  });
  const wss = new WebSocketServer({ server: app.server, path: '/events' });
  wss.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.send(JSON.stringify({ type: 'hello', after_seq: n }));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return {
    http: `http://127.0.0.1:${port}/insert`,
    ws: `ws://127.0.0.1:${port}/events`,
    async close() {
      wss.close();
      await app.close();
      db.close();
    },
  };
}

async function measure(http: string, ws: string, body: string): Promise<Report> {
  const child = fork(fileURLToPath(new URL('./ws-latency-clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      LAT_HTTP: http,
      LAT_WS: ws,
      LAT_BODY: body,
      LAT_CLIENTS: String(CLIENTS),
      LAT_ITEMS: String(ITEMS),
      LAT_CONCURRENCY: '10',
    },
  });
  const [report] = (await once(child, 'message')) as [Report];
  await once(child, 'exit');
  return report;
}

const line = (name: string, r: Report): string =>
  `${name.padEnd(10)} p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   ` +
  `max ${r.max.toFixed(1).padStart(6)} ms   ${r.delivered} delivered, ${r.missing} missing`;

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const { jig, repo } = await startJigWithRepo(root);
  const base = await baseline(root);
  const body = JSON.stringify({ title: 'Bump dependencies', repo });
  console.log(`## ${CLIENTS} subscribers, ${ITEMS} items filed 10 at a time, ${ROUNDS} rounds`);
  const p99s: { base: number; jig: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await measure(base.http, base.ws, body);
    const j = await measure(
      `${jig.url}/api/triggers`,
      `${jig.url.replace('http', 'ws')}/api/ws/events`,
      body,
    );
    console.log(line('baseline', b));
    console.log(line('jig', j));
    p99s.push({ base: b.p99, jig: j.p99 });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `median p99: baseline ${median(p99s.map((p) => p.base)).toFixed(1)} ms, jig ${median(p99s.map((p) => p.jig)).toFixed(1)} ms`,
  );
  record('ws_p99_ms', median(p99s.map((p) => p.jig)));
  await jig.close();
  await base.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
