import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessRegistry } from '../src/runtime/engine/process-registry.js';
import { Claims } from '../src/runtime/engine/claims.js';
import { systemClock } from '../src/runtime/clock.js';
import { EventLog } from '../src/runtime/events/event-log.js';
import { openStore, type Store } from '../src/store/database.js';
import { runningItemRows } from './helpers/item-rows.js';
import { eventually } from './helpers/eventually.js';
import { usePostgres } from './helpers/postgres.js';

/*
 * The claim round of engine/claims.ts on a real PostgreSQL, with several claimers each on a store
 * of its own (as worker processes are): who takes what, at which generation, and the takeover of a
 * silent claimer's items. The walk itself is not run: a claimed item is marked walked, as the
 * walker's kick does.
 */

const postgres = usePostgres();
const open: { store: Store; events: EventLog }[] = [];

afterAll(async () => {
  for (const o of open) {
    await o.events.close();
    await o.store.close();
  }
});

async function claimer(
  url: string,
  name: string,
): Promise<{ claims: Claims; store: Store; registry: ProcessRegistry }> {
  const store = await openStore(url);
  const events = new EventLog(store);
  await events.init();
  open.push({ store, events });
  const registry = new ProcessRegistry({
    store,
    events,
    clock: systemClock(),
    log: pino({ level: 'silent' }),
    identity: { name, role: 'worker', takesWork: true, slots: null, silenceMs: 60_000 },
    home: `/homes/${name}`,
  });
  const claims = new Claims({
    store,
    events,
    clock: systemClock(),
    log: pino({ level: 'silent' }),
    registry,
  });
  await claims.register();
  return { claims, store, registry };
}

async function seed(store: Store, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `i${String(i).padStart(3, '0')}`);
  await store.db.insertInto('work_items').values(runningItemRows(ids)).execute();
  return ids;
}

describe('claim rounds on PostgreSQL', () => {
  it('four claimers at once take disjoint shares; a silent one loses its items to the next round', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const url = await server.createDatabase(`claims_${process.pid}`);
    const all = await Promise.all(['w0', 'w1', 'w2', 'w3'].map((n) => claimer(url, n)));
    const ids = await seed(all[0]!.store, 40);
    const rounds = await Promise.all(all.map(({ claims }) => claims.claimRound()));
    for (const [i, r] of rounds.entries()) for (const id of r) all[i]!.claims.walked(id, true);
    // Each took its share (40 running / 4 live claimers), and no item twice.
    expect(rounds.map((r) => r.length)).toEqual([10, 10, 10, 10]);
    expect(rounds.flat().sort()).toEqual(ids);
    const rows = await all[0]!.store.db
      .selectFrom('item_claims')
      .selectAll()
      .orderBy('work_item_id')
      .execute();
    expect(rows.map((r) => [r.work_item_id, r.worker, Number(r.generation)])).toEqual(
      ids.map((id) => [id, `w${rounds.findIndex((r) => r.includes(id))}`, 1]),
    );
    // Nothing more to take while every claimer walks its share.
    expect(await all[1]!.claims.claimRound()).toEqual([]);

    // w0 goes silent (its last heartbeat two minutes ago): the others' next rounds take its items
    // over, each its share again (40 running / 3 live: up to 14, less the 10 it walks).
    await all[0]!.store.db
      .updateTable('workers')
      .set({ heartbeat_at: new Date(Date.now() - 120_000).toISOString() })
      .where('name', '=', 'w0')
      .execute();
    const mine = rounds[0]!;
    expect(await all[0]!.claims.holds(mine[0]!)).toBe(true);
    const taken = await Promise.all(all.slice(1).map(({ claims }) => claims.claimRound()));
    expect(taken.map((t) => t.length).sort()).toEqual([2, 4, 4]);
    expect(taken.flat().sort()).toEqual([...mine].sort());
    const takerOf = (id: string): string => `w${1 + taken.findIndex((t) => t.includes(id))}`;
    expect(await all[0]!.claims.holds(mine[0]!)).toBe(false);
    expect(await all[Number(takerOf(mine[0]!).slice(1))]!.claims.holds(mine[0]!)).toBe(true);
    // Read inside a transaction, as a walk advancing its item does: w0's walk may no longer write.
    const inTx = (c: Claims, id: string) => c.heldIn(all[0]!.store.db, id);
    expect(await inTx(all[0]!.claims, mine[0]!)).toBe(false);
    expect(await inTx(all[Number(takerOf(mine[0]!).slice(1))]!.claims, mine[0]!)).toBe(true);
    const events = await all[0]!.store.db
      .selectFrom('events')
      .select(['work_item_id', 'type', 'payload'])
      .where('type', '=', 'work_item_reclaimed')
      .orderBy('work_item_id')
      .execute();
    expect(events.map((e) => [e.work_item_id, JSON.parse(e.payload)])).toEqual(
      [...mine].sort().map((id) => [id, { worker: takerOf(id), from: 'w0', generation: 2, sessions: [] }]),
    );
    const workers = await all[1]!.registry.workers();
    expect(workers.map((w) => [w.name, w.alive, w.self, w.leads])).toEqual([
      ['w0', false, false, false],
      ['w1', true, true, false],
      ['w2', true, false, false],
      ['w3', true, false, false],
    ]);
  });

  it("the fence ends an item's walk sessions here when it stops, all of them when its claim moves on", async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const url = await server.createDatabase(`fence_${process.pid}`);
    const { claims, store } = await claimer(url, 'w0');
    const [stops, moves] = await seed(store, 2);
    expect((await claims.claimRound()).sort()).toEqual([stops, moves]);
    const ended: [string, boolean][] = [];
    await claims.start({
      walk: () => undefined,
      endLocal: async (id, walkOnly) => void ended.push([id, walkOnly]),
    });
    try {
      // Stopped, and still this process's: its walk's sessions end, not an escalation turn on it
      // (Jig's own turn on a stuck item starts within the second the fence looks).
      claims.walked(stops!, true);
      await store.db.updateTable('work_items').set({ status: 'stopped' }).where('id', '=', stops!).execute();
      await eventually(() => ended.length === 1, { what: 'the fence to see the stop' });
      // The walk still going here may record how its step ended (a repair paused is refunded) while
      // the claim is this process's; once that walk ends, nothing of it writes again.
      expect(await claims.heldIn(store.db, stops!)).toBe(true);
      claims.walked(stops!, false);
      expect(await claims.heldIn(store.db, stops!)).toBe(false);
      // Taken by another process: everything of it here ends. That process is alive (registered,
      // with a heartbeat): a claim held by a silent one is this process's to take back, and its
      // next round would, before the fence looked, when the move landed between the two.
      await claimer(url, 'w9');
      await store.db
        .updateTable('item_claims')
        .set({ worker: 'w9' })
        .where('work_item_id', '=', moves!)
        .execute();
      await eventually(() => ended.length === 2, { what: 'the fence to see the claim move' });
      expect(ended).toEqual([
        [stops, true],
        [moves, false],
      ]);
    } finally {
      claims.halt();
    }
  });
});
