import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/database.js';
import { appendEvent, lastSeq, readEvents } from '../src/store/events.js';
import { migrations } from '../src/store/migrations.js';
import { searchEntries, upsertEntry } from '../src/store/search.js';
import type { Database } from '../src/store/schema.js';
import { ftsQuery } from '../src/core/search/fts-query.js';
import { eventually } from './helpers/eventually.js';
import { usePostgres } from './helpers/postgres.js';

/*
 * PostgreSQL as a store (issue 27): every migration on both dialects with the same tables and
 * columns, numbers read as numbers, a gap-free event seq under overlapping writers and rolled-back
 * units, one writer at a time across processes, and full-text search.
 */

const postgres = usePostgres();
const opened: Store[] = [];

afterAll(async () => {
  for (const s of opened) await s.close().catch(() => undefined);
});

let n = 0;
async function pgStore(): Promise<Store> {
  const url = await postgres.server()!.createDatabase(`jig_store_${process.pid}_${n++}`);
  const s = await openStore(url);
  opened.push(s);
  return s;
}

async function sqliteStore(): Promise<Store> {
  const s = await openStore(join(mkdtempSync(join(tmpdir(), 'jig-store-')), 'jig.db'));
  opened.push(s);
  return s;
}

async function columnsOf(s: Store): Promise<Record<string, string[]>> {
  const db = s.db as unknown as Kysely<unknown>;
  const out: Record<string, string[]> = {};
  if (s.kind === 'sqlite') {
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(
      db,
    );
    for (const { name } of tables.rows) {
      const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name})`.execute(db);
      out[name] = cols.rows.map((c) => c.name).sort();
    }
  } else {
    const cols = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`.execute(
      db,
    );
    for (const c of cols.rows) (out[c.table_name] ??= []).push(c.column_name);
    for (const t of Object.keys(out)) out[t]!.sort();
  }
  return out;
}

const event = (item: string, i: number) =>
  ({ work_item_id: item, type: 'work_item_created', by: 'jig', payload: { i } }) as unknown as Parameters<
    typeof appendEvent
  >[1];

async function item(db: Kysely<Database>, id: string): Promise<void> {
  const now = new Date().toISOString();
  // The columns a row needs; every other one has its default.
  await sql`INSERT INTO work_items (id, title, status, chain, repo, branch, source, created_at, updated_at)
    VALUES (${id}, 'T', 'paused', 'c', '/r', 'b', 'human', ${now}, ${now})`.execute(db);
}

describe('PostgreSQL as a store', () => {
  it('runs every migration, to the same tables and columns as SQLite', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const pg = await pgStore();
    const lite = await sqliteStore();
    expect(pg.kind).toBe('postgres');
    expect(pg.schemaVersion).toBe(migrations[migrations.length - 1]!.version);
    const [a, b] = [await columnsOf(lite), await columnsOf(pg)];
    // SQLite's full-text tables; PostgreSQL's tsvector column and event counter (migrations 22, 24).
    for (const t of Object.keys(a)) if (t.startsWith('search_fts') || t === 'sqlite_sequence') delete a[t];
    b.search_entries = b.search_entries!.filter((c) => c !== 'tsv');
    expect(b.event_seq).toEqual(['id', 'last']);
    delete b.event_seq;
    expect(b).toEqual(a);
    // Opened again: nothing to migrate, the same version.
    const again = await openStore(server.urlFor(`jig_store_${process.pid}_${n - 1}`));
    opened.push(again);
    expect(again.schemaVersion).toBe(pg.schemaVersion);
  });

  it('keeps a text with a NUL character (PostgreSQL text cannot hold one) with U+FFFD in its place', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await s.db.insertInto('jig_meta').values({ key: 'k\0', value: 'a\0b' }).execute();
    await s.db.transaction().execute(async (t) => {
      await t.updateTable('jig_meta').set({ value: 'c\0d' }).where('key', '=', 'k\0').execute();
    });
    const rows = await s.db.selectFrom('jig_meta').selectAll().where('key', '=', 'k\0').execute();
    expect(rows).toEqual([{ key: 'k\uFFFD', value: 'c\uFFFDd' }]);
  });

  it('reads counts, sums and seq as numbers, and dollars to the cent and beyond', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await item(s.db, 'w1');
    await s.db
      .updateTable('work_items')
      .set({ spent_usd: 0.1234567891, spent_tokens: 5_000_000_000 })
      .execute();
    const row = await s.db
      .selectFrom('work_items')
      .select(['spent_usd', 'spent_tokens'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ spent_usd: 0.1234567891, spent_tokens: 5_000_000_000 });
    const e = await appendEvent(s.db, event('w1', 1));
    expect(e.seq).toBe(1);
    expect(await lastSeq(s.db)).toBe(1);
    const q = s.db
      .selectFrom('work_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .compile();
    expect(await s.countCached(q)).toBe(1);
    expect(await s.readArrays(s.db.selectFrom('work_items').select(['id', 'title']).compile())).toEqual([
      ['w1', 'T'],
    ]);
  });

  it('keeps seq gap-free and in commit order: overlapping writers, units rolled back', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await item(s.db, 'w1');
    // Two stores on one database: two processes.
    const other = await openStore(server.urlFor(`jig_store_${process.pid}_${n - 1}`));
    opened.push(other);
    const writers = [s, other, s, other].map((st, w) =>
      (async () => {
        for (let i = 0; i < 25; i++) {
          await st.db.transaction().execute(async (trx) => {
            await appendEvent(trx, event('w1', w * 100 + i));
            await sql`SAVEPOINT unit`.execute(trx);
            await appendEvent(trx, event('w1', -1));
            // Every fifth unit's second event is taken back, as a failed unit's is.
            if (i % 5 === 0) await sql`ROLLBACK TO SAVEPOINT unit`.execute(trx);
            await sql`RELEASE SAVEPOINT unit`.execute(trx);
          });
        }
      })(),
    );
    await Promise.all(writers);
    const seqs = (await readEvents(s.db, { after: 0, limit: 1000 })).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 180 }, (_, i) => i + 1));
  });

  it('runs one writer at a time across processes: no read-then-write is lost', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await item(s.db, 'w1');
    const stores = [
      s,
      ...(await Promise.all([1, 2].map(() => openStore(server.urlFor(`jig_store_${process.pid}_${n - 1}`))))),
    ];
    opened.push(...stores.slice(1));
    await Promise.all(
      stores.map((st) =>
        (async () => {
          for (let i = 0; i < 20; i++)
            await st.db.transaction().execute(async (trx) => {
              const { spent_tokens } = await trx
                .selectFrom('work_items')
                .select('spent_tokens')
                .executeTakeFirstOrThrow();
              await sql`SELECT pg_sleep(0.001)`.execute(trx);
              await trx
                .updateTable('work_items')
                .set({ spent_tokens: spent_tokens + 1 })
                .execute();
            });
        })(),
      ),
    );
    const { spent_tokens } = await s.db
      .selectFrom('work_items')
      .select('spent_tokens')
      .executeTakeFirstOrThrow();
    expect(spent_tokens).toBe(60);
  });

  it('searches with stemming and prefixes, title first, with a snippet', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await upsertEntry(s.db, {
      kind: 'item',
      ref: 'a',
      work_item_id: null,
      repo: null,
      title: 'Fix the runner',
      body: 'it runs slowly',
    });
    await upsertEntry(s.db, {
      kind: 'document',
      ref: 'b',
      work_item_id: null,
      repo: null,
      title: 'Docs',
      body: 'nothing here but the runner',
    });
    await upsertEntry(s.db, {
      kind: 'item',
      ref: 'c',
      work_item_id: null,
      repo: null,
      title: 'Other',
      body: 'none',
    });
    const hits = await searchEntries(s.db, ftsQuery('running')!, 10);
    expect(hits.map((h) => h.ref)).toEqual(['a', 'b']);
    expect(hits[1]!.snippet).toBe('nothing here but the «runner»');
    expect((await searchEntries(s.db, ftsQuery('runn')!, 10, 'document')).map((h) => h.ref)).toEqual(['b']);
  });

  it('ranks and highlights as SQLite does: a title-only match is highlighted, scores follow length and counts', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const entries: [string, string, string][] = [
      ['short', 'login', 'x'],
      ['long', 'Fix the login page for every user we have', 'nothing else'],
      ['body', 'Other', 'the login fails, then login again'],
      // bm25 weighs a word by how rare it is: with most entries holding it, every score is ~0.
      ...Array.from({ length: 20 }, (_, i): [string, string, string] => [
        `none${i}`,
        `unrelated ${i}`,
        'none',
      ]),
    ];
    const answers = [];
    for (const s of [await sqliteStore(), await pgStore()]) {
      for (const [ref, title, body] of entries)
        await upsertEntry(s.db, { kind: 'item', ref, work_item_id: null, repo: null, title, body });
      answers.push(await searchEntries(s.db, ftsQuery('login')!, 10));
    }
    const [lite, pg] = answers;
    // The same order on both: the short title, the long one, then the body's two mentions.
    expect(pg!.map((h) => h.ref)).toEqual(lite!.map((h) => h.ref));
    expect(pg!.map((h) => h.ref)).toEqual(['short', 'long', 'body']);
    for (const hits of [lite!, pg!]) {
      const snippet = Object.fromEntries(hits.map((h) => [h.ref, h.snippet]));
      expect(snippet.short).toBe('«login»');
      expect(snippet.long).toContain('«login»');
      expect(snippet.body).toContain('«login»');
      // Scores tell the hits apart, best first.
      const scores = hits.map((h) => h.score);
      expect(new Set(scores).size).toBe(3);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
  });

  it('refuses a database a newer Jig migrated', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const s = await pgStore();
    await sql`INSERT INTO jig_schema (version, applied_at) VALUES (999, 'x')`.execute(s.db);
    await expect(openStore(server.urlFor(`jig_store_${process.pid}_${n - 1}`))).rejects.toThrow(
      /the database is at schema version 999, newer than this Jig knows/,
    );
  });

  // A store that only migrated (as the test suite's template does) once kept a connection open
  // after close, and every copy of that database was refused as "being accessed by other users".
  it('leaves no connection behind on close, even when it only ran its migrations', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const name = `jig_store_${process.pid}_closed`;
    const s = await openStore(await server.createDatabase(name));
    await s.close();
    // A backend ends a moment after its client: watch it go rather than sleep.
    const left = async (): Promise<number> =>
      (await server.admin(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}'`))
        .rows[0].n as number;
    await eventually(
      async () => {
        expect(await left(), 'backends on the database').toBe(0);
        return true;
      },
      { what: `no connection left to ${name}` },
    );
    await expect(server.createDatabase(`${name}_copy`, name)).resolves.toMatch(new RegExp(`/${name}_copy$`));
  });
});
