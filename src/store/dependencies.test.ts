import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemRecord } from '../../test/helpers/item-record.js';
import { openStore, type Store } from './database.js';
import { dependenciesOf, dependentsOf, dropDependencies, setDependencies } from './dependencies.js';
import { insertItem } from './work-items.js';

let dir: string;
let store: Store;
const NOW = '2026-12-01T00:00:00.000Z';
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jig-deps-'));
  store = await openStore(join(dir, 'jig.db'));
  for (const [i, id] of ['a', 'b', 'c', 'd'].entries())
    await insertItem(store.db, itemRecord(id, `2026-01-0${i + 1}T00:00:00.000Z`));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dependencies in the store', () => {
  it('writes what an item comes after, and reads it both ways', async () => {
    expect(await setDependencies(store.db, 'c', ['a', 'b', 'a'], NOW)).toBeNull();
    expect(await dependenciesOf(store.db, 'c')).toEqual([
      { id: 'a', title: 'Item a', status: 'paused' },
      { id: 'b', title: 'Item b', status: 'paused' },
    ]);
    expect(await dependentsOf(store.db, 'a')).toEqual([{ id: 'c', title: 'Item c', status: 'paused' }]);
    // Replaced, not added to.
    expect(await setDependencies(store.db, 'c', ['b'], NOW)).toBeNull();
    expect((await dependenciesOf(store.db, 'c')).map((d) => d.id)).toEqual(['b']);
    expect(await dependentsOf(store.db, 'a')).toEqual([]);
  });

  it('refuses ids that are no items, itself, and a cycle, naming it; writes nothing then', async () => {
    expect(await setDependencies(store.db, 'a', ['b'], NOW)).toBeNull();
    expect(await setDependencies(store.db, 'b', ['c'], NOW)).toBeNull();
    expect(await setDependencies(store.db, 'c', ['zz', 'a', 'yy'], NOW)).toEqual({ unknown: ['zz', 'yy'] });
    expect(await setDependencies(store.db, 'c', ['c'], NOW)).toEqual({ cycle: ['c', 'c'] });
    expect(await setDependencies(store.db, 'c', ['d', 'a'], NOW)).toEqual({ cycle: ['c', 'a', 'b', 'c'] });
    expect(await dependenciesOf(store.db, 'c')).toEqual([]);
    // Changing an item's own edges never counts them against it.
    expect(await setDependencies(store.db, 'a', ['d'], NOW)).toBeNull();
  });

  it('drops some or all of what an item comes after', async () => {
    await setDependencies(store.db, 'd', ['a', 'b', 'c'], NOW);
    expect(await dropDependencies(store.db, 'd', ['b', 'zz'])).toEqual(['b']);
    expect(await dropDependencies(store.db, 'd', [])).toEqual([]);
    expect(await dropDependencies(store.db, 'd')).toEqual(['a', 'c']);
    expect(await dependenciesOf(store.db, 'd')).toEqual([]);
  });
});
