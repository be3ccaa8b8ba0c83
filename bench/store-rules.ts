/**
 * What the database's own rules cost a write (issue 50, migration 33; ADR 0040): filing an item as
 * the service does (the item row, its first events, a trigger key; one transaction), then moving
 * it twice (status, stop kind, spend), on a store at schema version 31 (no rules, PostgreSQL's
 * columns still text) beside one at the current version, alternately, in one process. SQLite holds
 * the rules as triggers, PostgreSQL as constraints on typed columns.
 * Run: npm run bench -- store-rules   (BENCH_ITEMS, BENCH_RUNS)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../src/store/database.js';
import { migrations } from '../src/store/migrations.js';
import { appendEvent } from '../src/store/events.js';
import { runningItemRows } from '../test/helpers/item-rows.js';
import { startPostgres } from '../test/helpers/postgres.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BEFORE = 31;

type NewEvent = Parameters<typeof appendEvent>[1];
const event = (id: string, i: number): NewEvent =>
  ({
    work_item_id: id,
    type: 'work_item_created',
    by: 'bench',
    payload: { i, title: id },
  }) as unknown as NewEvent;

/** ms to file and move ITEMS items. */
async function writes(store: Store, run: string): Promise<number> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  for (let i = 0; i < ITEMS; i++) {
    const id = `${run}-${i}`;
    const [row] = runningItemRows([id], at);
    await store.db.transaction().execute(async (t) => {
      await t.insertInto('work_items').values(row!).execute();
      await appendEvent(t, event(id, 0), at);
      await appendEvent(t, event(id, 1), at);
      await t
        .insertInto('trigger_keys')
        .values({ key: id, request_sha256: 'x', work_item_id: id, created_at: at })
        .execute();
    });
    await store.db.transaction().execute(async (t) => {
      await t
        .updateTable('work_items')
        .set({ status: 'stopped', stop_kind: 'gate', updated_at: at })
        .where('id', '=', id)
        .execute();
      await appendEvent(t, event(id, 2), at);
    });
    await store.db
      .updateTable('work_items')
      .set({ status: 'running', spent_usd: 0.25, stop_kind: null })
      .where('id', '=', id)
      .execute();
  }
  return performance.now() - t0;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function compare(kind: string, open: (upTo: number | null) => Promise<Store>): Promise<void> {
  const before = await open(BEFORE);
  const now = await open(null);
  const a: number[] = [];
  const b: number[] = [];
  await writes(before, 'warm-a');
  await writes(now, 'warm-b');
  for (let r = 0; r < RUNS; r++) {
    a.push(await writes(before, `a${r}`));
    b.push(await writes(now, `b${r}`));
  }
  await before.close();
  await now.close();
  const [ma, mb] = [median(a), median(b)];
  console.log(
    `${kind}: ${ITEMS} items filed and moved twice — version ${BEFORE} ${ma.toFixed(0)} ms, current ${mb.toFixed(0)} ms; ` +
      `${((mb / ma - 1) * 100).toFixed(1)}% (${((mb - ma) / ITEMS / 3).toFixed(3)} ms per transaction); median of ${RUNS}`,
  );
}

const dirs: string[] = [];
await compare('SQLite', async (upTo) => {
  const dir = mkdtempSync(join(tmpdir(), 'jig-bench-rules-'));
  dirs.push(dir);
  return openStore(
    join(dir, 'jig.db'),
    upTo === null ? migrations : migrations.filter((m) => m.version <= upTo),
  );
});
for (const d of dirs) rmSync(d, { recursive: true, force: true });

const pg = await startPostgres();
if ('skip' in pg) console.log(`PostgreSQL: skipped (${pg.skip})`);
else {
  try {
    let n = 0;
    await compare('PostgreSQL', async (upTo) =>
      openStore(
        await pg.createDatabase(`bench_rules_${n++}`),
        upTo === null ? migrations : migrations.filter((m) => m.version <= upTo),
      ),
    );
  } finally {
    pg.stop();
  }
}
