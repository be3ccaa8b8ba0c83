/**
 * Claim throughput on PostgreSQL (issue 27): a burst of 1 000 items set running, and N claimers,
 * each with a store (a pool) of its own as N worker processes have, taking them through Jig's claim
 * round (each its share, SKIP LOCKED, the claim row and its generation, under the write lock); a
 * claimed item counts as walked from then on, as the walk it starts would. The baseline is the bare
 * queue pattern on the same server in the same run: N clients each taking their share with one
 * `UPDATE … WHERE id IN (SELECT … LIMIT share FOR UPDATE SKIP LOCKED)` on a one-column table.
 * Run: npm run build && npm run bench -- claims
 */
import pg from 'pg';
import pino from 'pino';
import { ProcessRegistry } from '../src/runtime/engine/process-registry.js';
import { Claims } from '../src/runtime/engine/claims.js';
import { systemClock } from '../src/runtime/clock.js';
import { EventLog } from '../src/runtime/events/event-log.js';
import { openStore, type Store } from '../src/store/database.js';
import { runningItemRows } from '../test/helpers/item-rows.js';
import { startPostgres } from '../test/helpers/postgres.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const log = pino({ level: 'silent' });

async function seedItems(store: Store): Promise<void> {
  const rows = runningItemRows(Array.from({ length: ITEMS }, (_, i) => `b${String(i).padStart(6, '0')}`));
  for (let i = 0; i < rows.length; i += 200)
    await store.db
      .insertInto('work_items')
      .values(rows.slice(i, i + 200))
      .execute();
}

/** N claimers until every item is claimed: the time, and how many each took. */
async function jigClaims(url: string, n: number): Promise<{ ms: number; each: number[] }> {
  const seed = await openStore(url);
  await seedItems(seed);
  await seed.close();
  const claimers = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const store = await openStore(url);
      const events = new EventLog(store);
      await events.init();
      const claims = new Claims({
        store,
        events,
        clock: systemClock(),
        log,
        registry: new ProcessRegistry({
          store,
          events,
          clock: systemClock(),
          log,
          identity: { name: `w${i}`, role: 'worker', takesWork: true, slots: null, silenceMs: 60_000 },
          home: `/bench/w${i}`,
        }),
      });
      await claims.register();
      return { store, events, claims };
    }),
  );
  const t0 = performance.now();
  const each = await Promise.all(
    claimers.map(async ({ claims }) => {
      let took = 0;
      for (;;) {
        const ids = await claims.claimRound();
        if (ids.length === 0) break;
        // What the walker's kick does as each walk starts: the item is walked here now.
        for (const id of ids) claims.walked(id, true);
        took += ids.length;
      }
      return took;
    }),
  );
  const ms = performance.now() - t0;
  for (const c of claimers) {
    await c.events.close();
    await c.store.close();
  }
  return { ms, each };
}

async function bareQueue(url: string, n: number): Promise<{ ms: number; each: number[] }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE jobs (id text PRIMARY KEY, worker text)');
  await admin.query(`INSERT INTO jobs SELECT 'j' || g, NULL FROM generate_series(1, ${ITEMS}) g`);
  await admin.end();
  const clients = await Promise.all(
    Array.from({ length: n }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const share = Math.ceil(ITEMS / n);
  const t0 = performance.now();
  const each = await Promise.all(
    clients.map(async (c, i) => {
      let took = 0;
      for (;;) {
        const r = await c.query(
          `UPDATE jobs SET worker = $1 WHERE id IN (SELECT id FROM jobs WHERE worker IS NULL ORDER BY id LIMIT ${share} FOR UPDATE SKIP LOCKED)`,
          [`w${i}`],
        );
        if (!r.rowCount) break;
        took += r.rowCount;
      }
      return took;
    }),
  );
  const ms = performance.now() - t0;
  for (const c of clients) await c.end();
  return { ms, each };
}

const server = await startPostgres();
if ('skip' in server) {
  console.log(`skipped: ${server.skip}`);
} else {
  try {
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`a burst of ${ITEMS} running items, median of ${RUNS}`);
    console.log('claimers   bare SKIP LOCKED queue      Jig claim rounds            ratio   split');
    for (const n of [1, 2, 4, 8]) {
      const bare: number[] = [];
      const jig: number[] = [];
      let split: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        bare.push((await bareQueue(await server.createDatabase(`bare_${n}_${r}`), n)).ms);
        const out = await jigClaims(await server.createDatabase(`jig_${n}_${r}`), n);
        jig.push(out.ms);
        split = out.each;
      }
      const b = med(bare);
      const j = med(jig);
      const rate = (ms: number) => `${Math.round((ITEMS / ms) * 1000)}/s`.padStart(7);
      console.log(
        `${String(n).padStart(8)}   ${b.toFixed(0).padStart(6)} ms ${rate(b)}       ${j.toFixed(0).padStart(6)} ms ${rate(j)}      ${(j / b).toFixed(1).padStart(5)}×   ${split.join('/')}`,
      );
    }
  } finally {
    server.stop();
  }
}
