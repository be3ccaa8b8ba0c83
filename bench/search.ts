/**
 * Search over 10 000 items and 2 000 documents (about 2 KB each): `GET /api/search`'s query —
 * ftsQuery, FTS5 MATCH, BM25 ranking and a snippet, through Kysely — beside the bare FTS5 MATCH of
 * the same words through better-sqlite3 with no ranking or snippet, in the same process and on the
 * same file. Run: npm run bench -- search
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ftsQuery } from '../src/core/search/fts-query.js';
import { openStore } from '../src/store/database.js';
import { searchEntries, upsertEntry } from '../src/store/search.js';

const ITEMS = 10_000;
const DOCS = 2_000;
const QUERIES = Number(process.env.BENCH_RUNS ?? 300);

// A vocabulary with a long tail, as prose has: some words in most entries, most in few.
const WORDS = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}${'abcdefghij'[i % 10]}`);
let seed = 7;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const word = () => WORDS[Math.floor(WORDS.length * rand() ** 2)]!;
const text = (n: number) => Array.from({ length: n }, word).join(' ');

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]!;

const root = mkdtempSync(join(tmpdir(), 'jig-bench-search-'));
try {
  const path = join(root, 'jig.db');
  const store = await openStore(path);
  const t0 = performance.now();
  await store.db.transaction().execute(async (tx) => {
    for (let i = 0; i < ITEMS; i++)
      await upsertEntry(tx, {
        kind: 'item',
        ref: `i${i}`,
        work_item_id: `i${i}`,
        repo: '/r',
        title: text(6),
        body: text(40),
      });
    for (let i = 0; i < DOCS; i++)
      await upsertEntry(tx, {
        kind: 'document',
        ref: `d${i}`,
        work_item_id: `i${i}`,
        repo: '/r',
        title: `spec ${i}`,
        body: text(300),
      });
  });
  const load = performance.now() - t0;
  const raw = new Database(path, { readonly: true });
  const bare = raw.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT 20');
  const queries = Array.from({ length: QUERIES }, () => (rand() < 0.5 ? word() : `${word()} ${word()}`));
  const ours: number[] = [];
  const base: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const match = ftsQuery(q)!;
    let s = performance.now();
    bare.all(match);
    base.push(performance.now() - s);
    s = performance.now();
    hits += (await searchEntries(store.db, match, 20)).length;
    ours.push(performance.now() - s);
  }
  raw.close();
  await store.close();
  console.log(`indexed ${ITEMS} items + ${DOCS} documents in ${(load / 1000).toFixed(1)} s`);
  console.log(
    `search (${QUERIES} queries, ${(hits / QUERIES).toFixed(1)} hits each): p50 ${p(ours, 0.5).toFixed(2)} ms, p95 ${p(ours, 0.95).toFixed(2)} ms` +
      ` vs bare FTS5 MATCH p50 ${p(base, 0.5).toFixed(2)} ms, p95 ${p(base, 0.95).toFixed(2)} ms`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
