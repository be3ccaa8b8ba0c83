import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { attachmentKinds, SEARCH_KINDS } from '../src/contract/item-names.js';
import { ITEM_SOURCES } from '../src/contract/items.js';
import { IssueClosing } from '../src/contract/item-issues.js';
import { itemStatuses, stopKinds } from '../src/contract/item-status.js';
import { MergeRequestState } from '../src/contract/merge-requests.js';
import { AskState } from '../src/contract/permission-asks.js';
import { sessionStatuses } from '../src/contract/session-status.js';
import { ReviewOutcome, ThreadSide } from '../src/contract/threads.js';
import { openStore, type Store } from '../src/store/database.js';
import { appendEvent, readEvents } from '../src/store/events.js';
import { migrations } from '../src/store/migrations.js';
import { usePostgres } from './helpers/postgres.js';

/*
 * Issue 50, point 9: PostgreSQL keeps times as timestamptz, JSON as jsonb and dollars as numeric,
 * with CHECKs on the closed sets and foreign keys where rows belong to an item; SQLite holds the
 * same rules with triggers. Callers read the same values from both, and a database written before
 * the change upgrades with every row kept.
 */

const postgres = usePostgres();
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened) await s.close().catch(() => undefined);
});

let n = 0;
async function pgUrl(): Promise<string> {
  return postgres.server()!.createDatabase(`jig_constraints_${process.pid}_${n++}`);
}
async function open(location: string, upTo?: number): Promise<Store> {
  const s = await openStore(
    location,
    upTo === undefined ? migrations : migrations.filter((m) => m.version <= upTo),
  );
  opened.push(s);
  return s;
}
const sqlitePath = (): string => join(mkdtempSync(join(tmpdir(), 'jig-constraints-')), 'jig.db');

const raw = (s: Store): Kysely<unknown> => s.db as unknown as Kysely<unknown>;
const T0 = '2026-12-02T15:30:44.123Z';

async function item(s: Store, id: string, status = 'paused'): Promise<void> {
  await sql`INSERT INTO work_items (id, title, status, chain, repo, branch, source, created_at, updated_at)
    VALUES (${id}, 'T', ${status}, 'c', '/r', 'b', 'human', ${T0}, ${T0})`.execute(raw(s));
}

/** The error a refused statement raises, as one line naming the rule. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return 'accepted';
}

/** table.column → the values its check admits, read back from the database's own catalogue. */
async function closedSets(s: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const values = (text: string): string[] => [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!).sort();
  if (s.kind === 'postgres') {
    const r = await sql<{ t: string; name: string; def: string }>`
      SELECT conrelid::regclass::text AS t, conname AS name, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace AND pg_get_constraintdef(oid) LIKE '%::text%'`.execute(
      raw(s),
    );
    for (const c of r.rows) out[c.name.replace(/_check$/, '')] = values(c.def);
  } else {
    const r = await sql<{ name: string; sql: string }>`
      SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_check\\_insert' ESCAPE '\\' AND sql LIKE '% IN (''%'`.execute(
      raw(s),
    );
    for (const c of r.rows)
      out[c.name.replace(/_check_insert$/, '')] = values(
        c.sql.slice(c.sql.indexOf(' IN ('), c.sql.indexOf(' BEGIN ')),
      );
  }
  return out;
}

const CONTRACT: Record<string, readonly string[]> = {
  work_items_status: itemStatuses,
  work_items_stop_kind: stopKinds,
  work_items_source: ITEM_SOURCES,
  worker_sessions_status: sessionStatuses,
  worker_sessions_cost_source: ['reported', 'estimated', 'per_launch'],
  workers_role: ['serve', 'worker'],
  item_attachments_kind: attachmentKinds,
  item_issues_how: ['auto_intake', 'implements'],
  item_issues_closing: IssueClosing.options,
  review_threads_state: ['open', 'resolved'],
  review_threads_side: ThreadSide.options,
  reviews_outcome: ReviewOutcome.options,
  permission_asks_state: AskState.options,
  merge_requests_state: MergeRequestState.options,
  search_entries_kind: SEARCH_KINDS,
};

describe.each(['sqlite', 'postgres'] as const)('constraints on %s', (kind) => {
  async function store(ctx: { skip(reason: string): void }): Promise<Store | null> {
    if (kind === 'sqlite') return open(sqlitePath());
    if (!postgres.server()) {
      ctx.skip(postgres.skip());
      return null;
    }
    return open(await pgUrl());
  }

  it('admits exactly the contract’s closed sets: a new value needs a migration', async (ctx) => {
    const s = await store(ctx);
    if (!s) return;
    const sets = await closedSets(s);
    const want = Object.fromEntries(Object.entries(CONTRACT).map(([k, v]) => [k, [...v].sort()]));
    expect(sets).toEqual(want);
  });

  it('refuses a value outside a closed set, a flag not 0 or 1, a negative spend', async (ctx) => {
    const s = await store(ctx);
    if (!s) return;
    await item(s, 'w1');
    const db = raw(s);
    const named = (rule: string) => (s.kind === 'postgres' ? `violates check constraint "${rule}"` : rule);
    expect(await refusal(sql`UPDATE work_items SET status = 'done' WHERE id = 'w1'`.execute(db))).toContain(
      named('work_items_status_check'),
    );
    expect(await refusal(item(s, 'w2', 'finished'))).toContain(named('work_items_status_check'));
    expect(await refusal(sql`UPDATE work_items SET auto_gate = 2 WHERE id = 'w1'`.execute(db))).toContain(
      named('work_items_auto_gate_check'),
    );
    expect(await refusal(sql`UPDATE work_items SET spent_usd = -0.01 WHERE id = 'w1'`.execute(db))).toContain(
      named('work_items_spent_usd_check'),
    );
    // NULL passes, as with any CHECK; every value of the set does.
    await sql`UPDATE work_items SET stop_kind = NULL, auto_gate = NULL, budget_usd = NULL WHERE id = 'w1'`.execute(
      db,
    );
    for (const st of itemStatuses)
      await sql`UPDATE work_items SET status = ${st} WHERE id = 'w1'`.execute(db);
    const row = await s.db.selectFrom('work_items').select(['status', 'stop_kind']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'abandoned', stop_kind: null });
  });

  it('refuses a row that names no item, and an item rows still belong to', async (ctx) => {
    const s = await store(ctx);
    if (!s) return;
    const db = raw(s);
    const named = (rule: string) =>
      s.kind === 'postgres'
        ? `violates foreign key constraint "${rule}"`
        : `FOREIGN KEY constraint failed: ${rule}`;
    expect(
      await refusal(
        sql`INSERT INTO item_drafts (work_item_id, ops, base_seq, updated_at) VALUES ('nope', '[]', 0, ${T0})`.execute(
          db,
        ),
      ),
    ).toContain(named('item_drafts_work_item_id_fkey'));
    await item(s, 'w1');
    await item(s, 'w2');
    await sql`INSERT INTO work_item_dependencies (item_id, dependency_id, position, created_at) VALUES ('w1', 'w2', 0, ${T0})`.execute(
      db,
    );
    expect(
      await refusal(
        sql`UPDATE work_item_dependencies SET dependency_id = 'w9' WHERE item_id = 'w1'`.execute(db),
      ),
    ).toContain(named('work_item_dependencies_dependency_id_fkey'));
    const deleting = await refusal(sql`DELETE FROM work_items WHERE id = 'w2'`.execute(db));
    expect(deleting).toContain(named('work_item_dependencies_dependency_id_fkey'));
    // A search entry that is not an item's names none.
    await sql`INSERT INTO search_entries (kind, ref, work_item_id, repo, title, body, updated_at)
      VALUES ('chain', 'c', NULL, NULL, 'C', '', ${T0})`.execute(db);
    expect(await s.db.selectFrom('work_items').select('id').orderBy('id').execute()).toEqual([
      { id: 'w1' },
      { id: 'w2' },
    ]);
  });

  it('reads times, JSON and dollars back as they were written; a NUL in JSON is kept as the store keeps text', async (ctx) => {
    const s = await store(ctx);
    if (!s) return;
    await item(s, 'w1');
    await s.db
      .updateTable('work_items')
      .set({ spent_usd: 0.1 + 0.2, queued_at: T0, walk: '{"b":1,"a":[2]}' })
      .execute();
    const row = await s.db
      .selectFrom('work_items')
      .select(['created_at', 'queued_at', 'spent_usd', 'walk'])
      .executeTakeFirstOrThrow();
    expect({ ...row, walk: JSON.parse(row.walk!) as unknown }).toEqual({
      created_at: T0,
      queued_at: T0,
      spent_usd: 0.30000000000000004,
      walk: { a: [2], b: 1 },
    });
    const payload = { title: 'a\0b', literal: 'c\\u0000d' };
    await appendEvent(
      s.db,
      { work_item_id: 'w1', type: 'title_changed', by: 'jig', payload } as unknown as Parameters<
        typeof appendEvent
      >[1],
      T0,
    );
    const [e] = await readEvents(s.db, { workItemId: 'w1', limit: 10 });
    expect({ at: e!.at, payload: e!.payload }).toEqual({
      at: T0,
      payload: { title: s.kind === 'postgres' ? 'a\uFFFDb' : 'a\0b', literal: 'c\\u0000d' },
    });
    // Times compare as times: a range by an ISO string finds the row.
    const since = await s.db
      .selectFrom('events')
      .select('seq')
      .where('at', '>=', '2026-12-02T15:30:44.000Z')
      .execute();
    expect(since).toHaveLength(1);
  });
});

describe('a PostgreSQL database written before the typed columns', () => {
  it('upgrades with every row kept: times, JSON (a NUL, a damaged row), dollars; rules that old rows break added NOT VALID', async (ctx) => {
    if (!postgres.server()) return ctx.skip(postgres.skip());
    const url = await pgUrl();
    const old = await open(url, 31);
    const db = raw(old);
    await item(old, 'w1');
    await sql`INSERT INTO work_items (id, title, status, chain, repo, branch, source, created_at, updated_at, spent_usd, walk, skip_nodes)
      VALUES ('w2', 'T', 'finished', 'c', '/r', 'b', 'api', '2026-01-01T00:00:00.000Z', ${T0}, 0.30000000000000004, 'not json', '["a"]')`.execute(
      db,
    );
    await sql`INSERT INTO events (work_item_id, type, "by", payload, at) VALUES ('w1', 'title_changed', 'jig', ${'{"z":"a\\u0000b","a":1}'}, ${T0})`.execute(
      db,
    );
    await sql`INSERT INTO item_drafts (work_item_id, ops, base_seq, updated_at) VALUES ('gone', '[]', 0, ${T0})`.execute(
      db,
    );
    await old.close();

    const s = await open(url);
    expect(s.schemaVersion).toBe(migrations[migrations.length - 1]!.version);
    const types = await sql<{ c: string; t: string }>`
      SELECT table_name || '.' || column_name AS c, data_type AS t FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name IN ('work_items', 'events')
        AND column_name IN ('created_at', 'at', 'walk', 'payload', 'spent_usd') ORDER BY 1`.execute(raw(s));
    expect(types.rows).toEqual([
      { c: 'events.at', t: 'timestamp with time zone' },
      { c: 'events.payload', t: 'jsonb' },
      { c: 'work_items.created_at', t: 'timestamp with time zone' },
      { c: 'work_items.spent_usd', t: 'numeric' },
      { c: 'work_items.walk', t: 'jsonb' },
    ]);
    const items = await s.db
      .selectFrom('work_items')
      .select(['id', 'status', 'created_at', 'spent_usd', 'walk', 'skip_nodes'])
      .orderBy('id')
      .execute();
    expect(items).toEqual([
      { id: 'w1', status: 'paused', created_at: T0, spent_usd: 0, walk: null, skip_nodes: '[]' },
      {
        id: 'w2',
        status: 'finished',
        created_at: '2026-01-01T00:00:00.000Z',
        spent_usd: 0.30000000000000004,
        walk: '"not json"',
        skip_nodes: '["a"]',
      },
    ]);
    const [e] = await readEvents(s.db, { workItemId: 'w1', limit: 10 });
    expect(e!.payload).toEqual({ z: 'a\uFFFDb', a: 1 });
    const valid = await sql<{ name: string; ok: boolean }>`
      SELECT conname AS name, convalidated AS ok FROM pg_constraint
      WHERE conname IN ('work_items_status_check', 'work_items_source_check', 'item_drafts_work_item_id_fkey', 'work_items_stop_kind_check', 'events_work_item_id_fkey')
      ORDER BY 1`.execute(raw(s));
    expect(valid.rows).toEqual([
      { name: 'events_work_item_id_fkey', ok: true },
      { name: 'item_drafts_work_item_id_fkey', ok: false },
      { name: 'work_items_source_check', ok: false },
      { name: 'work_items_status_check', ok: false },
      { name: 'work_items_stop_kind_check', ok: true },
    ]);
    // Old rows stay; a new write is held to the rule.
    expect(await refusal(item(s, 'w3', 'finished'))).toContain('work_items_status_check');
  });
});

describe('a SQLite database written before the rules', () => {
  it('upgrades with its rows kept; new writes are held to the rules', async () => {
    const path = sqlitePath();
    const old = await open(path, 31);
    await sql`INSERT INTO work_items (id, title, status, chain, repo, branch, source, created_at, updated_at)
      VALUES ('w1', 'T', 'finished', 'c', '/r', 'b', 'api', ${T0}, ${T0})`.execute(raw(old));
    await old.close();
    const s = await open(path);
    expect(await s.db.selectFrom('work_items').select(['id', 'status', 'source']).execute()).toEqual([
      { id: 'w1', status: 'finished', source: 'api' },
    ]);
    expect(
      await refusal(sql`UPDATE work_items SET status = 'gone' WHERE id = 'w1'`.execute(raw(s))),
    ).toContain('CHECK constraint failed: work_items_status_check');
    // A write that leaves the column alone is not judged on its old value.
    await sql`UPDATE work_items SET title = 'U' WHERE id = 'w1'`.execute(raw(s));
  });
});
