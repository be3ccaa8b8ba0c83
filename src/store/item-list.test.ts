import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { listItems } from './item-list.js';
import { Prepared } from './prepared.js';
import { getItem, insertItem, updateItem } from './work-items.js';
import { itemRecord as item } from '../../test/helpers/item-record.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jig-list-'));
  store = await openStore(join(dir, 'jig.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('listItems', () => {
  it('answers the same records a read of one item does, less what a listing leaves out', async () => {
    const rec = item('a1', '2026-01-01T00:00:00.000Z', {
      walk: { v: 1, phase: 'node', node: 1, step: 0, rejects: {}, approved: [] },
      chain_definition: { id: 'default', nodes: [] },
    });
    await insertItem(store.db, rec);
    const { rows, total, more } = await listItems(store, { archived: 'false', limit: 10 });
    const full = await getItem(store.db, 'a1');
    expect([total, more]).toEqual([1, false]);
    expect(rows).toEqual([{ ...full, walk: null, chain_definition: null, policy_snapshot: null }]);
    expect(full?.walk).toEqual(rec.walk);
  });

  it('pages newest first without skipping or repeating, and counts again after a change', async () => {
    for (let i = 0; i < 7; i++) await insertItem(store.db, item(`i${i}`, `2026-01-0${i + 1}T00:00:00.000Z`));
    const first = await listItems(store, { archived: 'false', limit: 3 });
    expect([first.rows.map((r) => r.id), first.total, first.more]).toEqual([['i6', 'i5', 'i4'], 7, true]);
    const last = first.rows.at(-1)!;
    const second = await listItems(store, {
      archived: 'false',
      limit: 3,
      cursor: { created_at: last.created_at, id: last.id },
    });
    expect(second.rows.map((r) => r.id)).toEqual(['i3', 'i2', 'i1']);
    // The cached total follows every change: an insert, an update that moves an item out of the
    // filter, and a commit from another connection.
    await insertItem(store.db, item('i7', '2026-01-08T00:00:00.000Z'));
    expect((await listItems(store, { archived: 'false', limit: 1 })).total).toBe(8);
    await updateItem(store.db, 'i0', { archived_at: '2026-02-01T00:00:00.000Z' });
    expect((await listItems(store, { archived: 'false', limit: 1 })).total).toBe(7);
    expect((await listItems(store, { archived: 'true', limit: 1 })).total).toBe(1);
    const other = new BetterSqlite3(join(dir, 'jig.db'));
    other.prepare("UPDATE work_items SET archived_at = '2026-02-02T00:00:00.000Z' WHERE id = 'i1'").run();
    other.close();
    expect((await listItems(store, { archived: 'false', limit: 1 })).total).toBe(6);
    expect((await listItems(store, { archived: 'all', statuses: ['paused'], limit: 1 })).total).toBe(8);
  });

  it('never reads inside another unit of work that is still open', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = store.db.transaction().execute(async (trx) => {
      await insertItem(trx, item('tx', '2026-03-01T00:00:00.000Z'));
      await held;
      throw new Error('rolled back');
    });
    const read = listItems(store, { archived: 'all', limit: 10 });
    release();
    await expect(tx).rejects.toThrow('rolled back');
    expect((await read).rows.map((r) => r.id)).toEqual([]);
  });
});

describe('Prepared', () => {
  it('compiles once and binds each value to its own parameter', async () => {
    let built = 0;
    const byRepo = new Prepared<{ repo: string; status: string }, { id: string }>(
      ['repo', 'status'],
      (db, p) => {
        built++;
        return db
          .selectFrom('work_items')
          .select('id')
          .where('status', '=', p.status)
          .where('repo', '=', p.repo);
      },
    );
    await insertItem(store.db, item('x1', '2026-01-01T00:00:00.000Z', { repo: '/a' }));
    await insertItem(store.db, item('x2', '2026-01-02T00:00:00.000Z', { repo: '/b', status: 'cancelled' }));
    expect((await byRepo.run(store.db, { repo: '/a', status: 'paused' })).rows).toEqual([{ id: 'x1' }]);
    expect((await byRepo.run(store.db, { repo: '/b', status: 'cancelled' })).rows).toEqual([{ id: 'x2' }]);
    expect((await byRepo.run(store.db, { repo: '/b', status: 'paused' })).rows).toEqual([]);
    expect(built).toBe(1);
  });

  it('refuses a query that would bake a value into its text', async () => {
    const bad = new Prepared<{ id: string }, unknown>(['id'], (db) =>
      db.selectFrom('work_items').select('id').where('id', '=', 'fixed'),
    );
    await expect(bad.run(store.db, { id: 'x' })).rejects.toThrow(/binds a value that is not a parameter/);
  });
});
