import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpoints } from './wal-checkpoints.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function walStore(): { raw: BetterSqlite3.Database; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jig-wal-'));
  dirs.push(dir);
  const path = join(dir, 'jig.db');
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  raw.exec('CREATE TABLE t (id integer primary key, v text)');
  return { raw, path };
}

const write = (raw: BetterSqlite3.Database, n: number): void => {
  const ins = raw.prepare('INSERT INTO t (v) VALUES (?)');
  raw.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(`row ${i}`);
  })();
};

/**
 * The rows the database file itself holds: a copy of the file without its log, which has only what
 * a checkpoint copied into it.
 */
const rowsInFile = (path: string): number => {
  const copy = `${path}.copy`;
  copyFileSync(path, copy);
  const db = new BetterSqlite3(copy, { readonly: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM t').pluck().get());
  } finally {
    db.close();
  }
};

describe('checkpoints of the write-ahead log', () => {
  it('stay with SQLite while the store is quiet', async () => {
    const { raw, path } = walStore();
    const c = new WalCheckpoints(raw, path, {}, 100, 2);
    write(raw, 20);
    c.look();
    write(raw, 79);
    c.look();
    // A burst is not a busy store: two busy looks in a row are.
    write(raw, 150);
    c.look();
    write(raw, 10);
    c.look();
    expect(c.offloaded).toBe(false);
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await c.close();
    raw.close();
  });

  it('move to a thread of their own once it is busy, which copies each commit into the file', async () => {
    const { raw, path } = walStore();
    let heard: () => void = () => {};
    const c = new WalCheckpoints(raw, path, { onCheckpoint: () => heard() }, 100, 2);
    write(raw, 100);
    c.look();
    expect(c.offloaded).toBe(false);
    write(raw, 50);
    const first = new Promise<void>((resolve) => (heard = resolve));
    // Below the rate once more would start the count again; this second busy look hands over.
    write(raw, 50);
    c.look();
    expect(c.offloaded).toBe(true);
    // The writer no longer copies: only the thread does.
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await first;
    expect(rowsInFile(path)).toBe(200);
    for (const n of [500, 10]) {
      const copied = new Promise<void>((resolve) => (heard = resolve));
      write(raw, n);
      await copied;
    }
    expect(rowsInFile(path)).toBe(710);
    await c.close();
    expect(c.offloaded).toBe(false);
    raw.close();
  });

  it('come back to SQLite when the thread fails', async () => {
    const { raw, path } = walStore();
    const failed = new Promise<unknown>((resolve) => {
      const c = new WalCheckpoints(raw, join(path, 'not-a-database'), { onError: resolve }, 10, 1);
      write(raw, 20);
      c.look();
      expect(c.offloaded).toBe(true);
    });
    expect(String(await failed)).toBe('Error: the checkpoint thread stopped: unable to open database file');
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    raw.close();
  });
});
