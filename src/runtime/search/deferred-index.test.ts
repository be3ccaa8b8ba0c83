import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ftsQuery } from '../../core/search/fts-query.js';
import { openStore, type Store } from '../../store/database.js';
import { indexedSeq, searchEntries } from '../../store/search.js';
import { EventLog } from '../events/event-log.js';
import { fileForTest } from '../events/file-for-test.js';
import { DeferredIndex } from './deferred-index.js';

let dir: string;
let store: Store;
let events: EventLog;
let warned: string[];
const log = {
  info: () => {},
  warn: (obj: object) => warned.push(String((obj as { err?: unknown }).err)),
  error: () => {},
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jig-deferred-index-'));
  store = await openStore(join(dir, 'jig.db'));
  events = new EventLog(store);
  await events.init();
  warned = [];
});
afterEach(async () => {
  await events.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Files an item titled `title` with its event, as intake does; answers the event's seq. */
const file = (title: string): Promise<number> => events.transact((uow) => fileForTest(uow, title));

const found = async (word: string): Promise<string[]> =>
  (await searchEntries(store.db, ftsQuery(word)!, 10)).map((h) => `${h.kind}:${h.ref}`);

/** An index that writes only when told (flush), never on its timer. */
const index = (): DeferredIndex => new DeferredIndex({ store, events, log }, 3_600_000);

describe('the search index written after the commit', () => {
  it('takes in what was committed when flushed, and keeps the last seq with the entries', async () => {
    const idx = index();
    idx.start();
    await idx.flush();
    const seq = await file('alpha');
    expect(await found('alpha')).toEqual([]);
    await idx.flush();
    expect(await found('alpha')).toEqual(['item:alpha']);
    expect(await indexedSeq(store.db)).toBe(seq);
    await idx.stop();
    // Heard no more once stopped.
    await file('beta');
    await idx.flush();
    expect(await found('beta')).toEqual([]);
  });

  it('takes in at its start what was committed while nothing indexed (a crash, a stop)', async () => {
    const first = await file('gamma');
    await file('delta');
    const idx = index();
    idx.start();
    await idx.flush();
    expect(await found('gamma')).toEqual(['item:gamma']);
    expect(await found('delta')).toEqual(['item:delta']);
    expect(await indexedSeq(store.db)).toBe(first + 1);
    await idx.stop();
  });

  it('keeps the mark before a batch that failed, so the next start takes that batch in again', async () => {
    const idx = index();
    idx.start();
    await idx.flush();
    const before = events.lastSeq;
    // One entry the index cannot write: its batch fails, the batches after it do not.
    store.raw!.exec(`CREATE TEMP TRIGGER refuse BEFORE INSERT ON search_entries WHEN NEW.title = 'boom'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    await file('boom');
    await idx.flush();
    expect(warned).toEqual([expect.stringContaining('refused by the test')]);
    const last = await file('fine');
    await idx.flush();
    expect(await found('fine')).toEqual(['item:fine']);
    expect(await found('boom')).toEqual([]);
    expect(await indexedSeq(store.db)).toBe(before);
    await idx.stop();

    store.raw!.exec('DROP TRIGGER temp.refuse');
    const again = index();
    again.start();
    await again.flush();
    expect(await found('boom')).toEqual(['item:boom']);
    expect(await indexedSeq(store.db)).toBe(last);
    await again.stop();
  });
});
