import { sql, type Kysely, type Transaction } from 'kysely';
import { SearchKind, type SearchHit } from '../contract/search.js';
import { onPostgres } from './dialect.js';
import { Prepared } from './prepared.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SearchEntry {
  kind: SearchKind;
  ref: string;
  work_item_id: string | null;
  repo: string | null;
  title: string;
  body: string;
}

/** The most of a body the index keeps: the start of a long document is what identifies it. */
const MAX_BODY = 200_000;

/*
 * The marks around matched words (guillemets, and an ellipsis where a passage is cut), written as
 * escapes and put into the SQL as literals: the server's bundle then stays ASCII, which its start
 * reads as one-byte text, in half the memory and time of UTF-8 (bin/code-cache.js).
 */
const OPEN = '\u00ab';
const CLOSE = '\u00bb';
const ELLIPSIS = '\u2026';

type EntryRow = SearchEntry & { updated_at: string };

// Written for every event with text and every filing: compiled once (prepared.ts).
const upsertQuery = new Prepared<EntryRow, never>(
  ['kind', 'ref', 'work_item_id', 'repo', 'title', 'body', 'updated_at'],
  (db, row) =>
    db
      .insertInto('search_entries')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['kind', 'ref']).doUpdateSet((eb) => ({
          work_item_id: eb.ref('excluded.work_item_id'),
          repo: eb.ref('excluded.repo'),
          title: eb.ref('excluded.title'),
          body: eb.ref('excluded.body'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      ),
);

/** Writes an entry (the FTS table follows by trigger). */
export async function upsertEntry(db: Db, e: SearchEntry, at = new Date().toISOString()): Promise<void> {
  await upsertQuery.run(db, {
    kind: e.kind,
    ref: e.ref,
    work_item_id: e.work_item_id,
    repo: e.repo,
    title: e.title,
    body: e.body.slice(0, MAX_BODY),
    updated_at: at,
  });
}

/** Removes the entries of a kind (all, or those of one item). */
export async function deleteEntries(db: Db, kind: SearchKind, workItemId?: string): Promise<void> {
  let q = db.deleteFrom('search_entries').where('kind', '=', kind);
  if (workItemId !== undefined) q = q.where('work_item_id', '=', workItemId);
  await q.execute();
}

export async function entryCount(db: Db): Promise<number> {
  const r = await db
    .selectFrom('search_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The best hits of an FTS5 query (ftsQuery's), title weighted ten times the body. */
export async function searchEntries(
  db: Db,
  match: string,
  limit: number,
  kind?: SearchKind,
): Promise<SearchHit[]> {
  if (onPostgres(db)) return searchPostgres(db, match, limit, kind);
  const { rows } = await sql<{
    kind: string;
    ref: string;
    work_item_id: string | null;
    repo: string | null;
    title: string;
    snippet: string;
    score: number;
  }>`SELECT e.kind, e.ref, e.work_item_id, e.repo, e.title,
        snippet(search_fts, -1, ${sql.lit(OPEN)}, ${sql.lit(CLOSE)}, ${sql.lit(ELLIPSIS)}, 16) AS snippet,
        bm25(search_fts, 10.0, 1.0) AS score
      FROM search_fts JOIN search_entries e ON e.id = search_fts.rowid
      WHERE search_fts MATCH ${match} ${kind ? sql`AND e.kind = ${kind}` : sql``}
      ORDER BY score LIMIT ${limit}`.execute(db);
  return rows.flatMap((r) => {
    const k = SearchKind.safeParse(r.kind);
    return k.success ? [{ ...r, kind: k.data, score: Math.round(-Number(r.score) * 1000) / 1000 }] : [];
  });
}

/** Items exist but none is indexed: a home from before the index, to scan once. */
export async function needsFirstScan(db: Db): Promise<boolean> {
  const indexed = await db
    .selectFrom('search_entries')
    .select('id')
    .where('kind', '=', 'item')
    .limit(1)
    .executeTakeFirst();
  if (indexed) return false;
  const item = await db.selectFrom('work_items').select('id').limit(1).executeTakeFirst();
  return item !== undefined;
}

/** ftsQuery's FTS5 words (`"a" "b"*`) as a tsquery: every word, the last one a prefix. */
export function tsQueryOf(match: string): string {
  return [...match.matchAll(/"([^"]+)"(\*)?/g)].map((m) => `'${m[1]}'${m[2] ? ':*' : ''}`).join(' & ');
}

/**
 * The same search on PostgreSQL (migration 22's tsvector), in SQLite's shape: the title weighs ten
 * times the body, a word found more often ranks higher and a longer entry lower (ts_rank with
 * normalisation 1, the rank over 1 + log of the length, as bm25 weighs length; ts_rank_cd gave
 * every one-word title match exactly 1), and the snippet is taken where the words are, the body
 * or else the title (ts_headline of a body without them highlights nothing).
 */
async function searchPostgres(db: Db, match: string, limit: number, kind?: SearchKind): Promise<SearchHit[]> {
  const marks = sql.lit(`StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=16, MinWords=5`);
  const { rows } = await sql<{
    kind: string;
    ref: string;
    work_item_id: string | null;
    repo: string | null;
    title: string;
    snippet: string;
    score: number;
  }>`SELECT e.kind, e.ref, e.work_item_id, e.repo, e.title,
        CASE WHEN to_tsvector('english', e.body) @@ q THEN ts_headline('english', e.body, q, ${marks})
          ELSE ts_headline('english', e.title, q, ${marks}) END AS snippet,
        ts_rank('{0.1, 0.1, 0.1, 1.0}', e.tsv, q, 1) AS score
      FROM search_entries e, to_tsquery('english', ${tsQueryOf(match)}) q
      WHERE e.tsv @@ q ${kind ? sql`AND e.kind = ${kind}` : sql``}
      ORDER BY score DESC, e.id LIMIT ${limit}`.execute(db);
  return rows.flatMap((r) => {
    const k = SearchKind.safeParse(r.kind);
    return k.success ? [{ ...r, kind: k.data, score: Math.round(Number(r.score) * 1000) / 1000 }] : [];
  });
}

/** jig_meta's key for the last event seq the search index has taken in (SQLite: runtime/search/deferred-index.ts). */
const INDEXED_SEQ = 'search:indexed_seq';

/** The last event seq the index has taken in, or null for a store whose events were indexed as written. */
export async function indexedSeq(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('jig_meta')
    .select('value')
    .where('key', '=', INDEXED_SEQ)
    .executeTakeFirst();
  const n = row ? Number(row.value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
}

export async function setIndexedSeq(db: Db, seq: number): Promise<void> {
  const value = String(seq);
  await db
    .insertInto('jig_meta')
    .values({ key: INDEXED_SEQ, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
