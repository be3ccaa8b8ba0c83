// Baseline for bench/startup.ts: the least a Fastify + SQLite server does before its first answer.
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import { join } from 'node:path';

const db = new Database(join(process.argv[2], 'baseline.db'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS t (k text PRIMARY KEY, v text)');
const app = Fastify();
app.get('/api/health', async () => ({
  status: 'ok',
  rows: db.prepare('SELECT count(*) AS n FROM t').get().n,
}));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${app.server.address().port}\n`);
