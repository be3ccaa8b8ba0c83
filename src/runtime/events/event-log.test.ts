import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventRecord } from '../../contract/events.js';
import { openStore, type Store } from '../../store/database.js';
import { readEvents } from '../../store/events.js';
import { EventLog, MAX_GROUP, type UnitOfWork } from './event-log.js';
import { fileForTest } from './file-for-test.js';

let dir: string;
let store: Store;
let log: EventLog;
let heard: EventRecord[][];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jig-eventlog-'));
  store = await openStore(join(dir, 'jig.db'));
  log = new EventLog(store);
  await log.init();
  heard = [];
  log.subscribe((events) => heard.push([...events]));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = async (): Promise<string[]> =>
  (await store.db.selectFrom('work_items').select('id').orderBy('id').execute()).map((r) => r.id);

describe('EventLog group commit', () => {
  it('runs the units queued in one turn of the event loop together, and tells listeners once per commit', async () => {
    const first = ['a', 'b', 'c'].map((id) => log.transact((uow) => fileForTest(uow, id)));
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    // Queued while a commit runs (held open until they are queued): these share the next one.
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = log.transact(async (uow) => {
      const seq = await fileForTest(uow, 'd');
      inside();
      await held;
      return seq;
    });
    await entered;
    const rest = ['e', 'f'].map((id) => log.transact((uow) => fileForTest(uow, id)));
    release();
    expect(await Promise.all([running, ...rest])).toEqual([4, 5, 6]);
    expect(heard.map((batch) => batch.map((e) => e.seq))).toEqual([[1, 2, 3], [4], [5, 6]]);
    expect(log.lastSeq).toBe(6);
  });

  it('rolls back a failing unit alone, events included, and keeps seq gap-free', async () => {
    const first = log.transact((uow) => fileForTest(uow, 'a'));
    const ok = log.transact((uow) => fileForTest(uow, 'b'));
    const bad = log.transact(async (uow) => {
      await fileForTest(uow, 'x');
      throw new Error('refused after writing');
    });
    const after = log.transact((uow) => fileForTest(uow, 'c'));
    await expect(bad).rejects.toThrow('refused after writing');
    expect([await first, await ok, await after]).toEqual([1, 2, 3]);
    expect(await ids()).toEqual(['a', 'b', 'c']);
    const seqs = (await readEvents(store.db, { limit: 10 })).map((e) => [e.seq, e.work_item_id]);
    expect(seqs).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(heard.flat().map((e) => e.work_item_id)).toEqual(['a', 'b', 'c']);
  });

  it('a lone failing unit rolls back its transaction', async () => {
    await expect(
      log.transact(async (uow) => {
        await fileForTest(uow, 'x');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await ids()).toEqual([]);
    expect(heard).toEqual([]);
    expect(await log.transact((uow) => fileForTest(uow, 'a'))).toBe(1);
  });

  it('a commit that fails rejects every unit of its group, and nothing is heard', async () => {
    const first = await log.transact((uow) => fileForTest(uow, 'a'));
    // An event for an item that does not exist, its foreign key checked only at COMMIT.
    const doomed = log.transact(async (uow) => {
      await uow.db.executeQuery(CompiledQuery.raw('PRAGMA defer_foreign_keys = ON'));
      await uow.emit({ work_item_id: 'ghost', type: 'work_item_dequeued', by: 'jig', payload: {} });
    });
    const innocent = log.transact((uow) => fileForTest(uow, 'b'));
    expect(first).toBe(1);
    await expect(doomed).rejects.toThrow(/FOREIGN KEY/);
    await expect(innocent).rejects.toThrow(/FOREIGN KEY/);
    expect(await ids()).toEqual(['a']);
    expect(heard.map((b) => b.map((e) => e.seq))).toEqual([[1]]);
    expect(log.lastSeq).toBe(1);
    expect(await log.transact((uow) => fileForTest(uow, 'c'))).toBe(2);
  });

  it('takes at most MAX_GROUP units per commit', async () => {
    const all = Array.from({ length: MAX_GROUP * 2 + 3 }, (_, i) =>
      log.transact((uow) => fileForTest(uow, `i${String(i).padStart(3, '0')}`)),
    );
    await Promise.all(all);
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...heard.map((b) => b.length))).toBeLessThanOrEqual(MAX_GROUP);
    expect(heard.flat().map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
  });

  it('a unit queued by a listener runs after the commit that told it', async () => {
    const order: string[] = [];
    log.subscribe((events) => {
      if (events.some((e) => e.work_item_id === 'a'))
        void log.transact((uow) => fileForTest(uow, 'z')).then(() => order.push('z committed'));
    });
    await log.transact((uow) => fileForTest(uow, 'a'));
    order.push('a committed');
    await log.transact(async () => {});
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a committed', 'z committed']);
    expect(await ids()).toEqual(['a', 'z']);
  });

  it('close lets queued units commit, then refuses new ones', async () => {
    const queued = ['a', 'b'].map((id) => log.transact((uow) => fileForTest(uow, id)));
    const closing = log.close();
    await expect(log.transact((uow) => fileForTest(uow, 'late'))).rejects.toThrow(
      'the event log is closed: the server is stopping',
    );
    await closing;
    expect(await Promise.all(queued)).toEqual([1, 2]);
    expect(await ids()).toEqual(['a', 'b']);
  });

  it('under test refuses an event whose payload does not match its kind; in production stores it', async () => {
    const bad = (uow: UnitOfWork) =>
      // @ts-expect-error: a key plan_progress does not carry, as a value the compiler was told wrong about
      uow.emit({ work_item_id: 'a', type: 'plan_progress', by: 'jig', payload: { task: 't', stray: 1 } });
    await log.transact((uow) => fileForTest(uow, 'a'));
    await expect(log.transact(bad)).rejects.toThrow(
      'event plan_progress does not match the catalogue: payload: Unrecognized key: "stray"',
    );
    const lenient = new EventLog(store, () => {}, false);
    await lenient.init();
    await lenient.transact(bad);
    expect((await readEvents(store.db, { limit: 10 })).map((e) => [e.type, e.payload])).toEqual([
      ['work_item_created', expect.objectContaining({ title: 'a' })],
      ['plan_progress', { task: 't', stray: 1 }],
    ]);
  });

  it('tells its owner when a listener throws, and the change stays committed', async () => {
    const errors: unknown[] = [];
    const told = new EventLog(store, (err) => errors.push(err));
    await told.init();
    told.subscribe(() => {
      throw new Error('listener broke');
    });
    expect(await told.transact((uow) => fileForTest(uow, 'a'))).toBe(1);
    expect(errors.map((e) => (e as Error).message)).toEqual(['listener broke']);
    expect(await ids()).toEqual(['a']);
  });
});
