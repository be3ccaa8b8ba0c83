import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreRefusedError } from './database.js';
import { migrations, type Migration } from './migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dbPath(): string {
  const d = mkdtempSync(join(tmpdir(), 'jig-store-'));
  dirs.push(d);
  return join(d, 'jig.db');
}

const extra: Migration = {
  version: migrations.length + 1,
  name: 'test-extra',
  async up(db) {
    await sql`CREATE TABLE extra (id integer PRIMARY KEY)`.execute(db);
  },
};

describe('openStore', () => {
  it('creates the store in WAL mode with foreign keys on, at the latest schema, with no backup', async () => {
    const path = dbPath();
    const store = await openStore(path);
    expect(store.raw!.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.raw!.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.schemaVersion).toBe(migrations.length);
    expect(store.backupPath).toBe(null);
    await store.close();
  });

  it('copies the database before running a new migration, and the copy is at the old version', async () => {
    const path = dbPath();
    await (await openStore(path)).close();
    const store = await openStore(path, [...migrations, extra]);
    expect(store.schemaVersion).toBe(extra.version);
    expect(store.backupPath).not.toBe(null);
    expect(existsSync(store.backupPath!)).toBe(true);
    expect(store.backupPath!).toMatch(new RegExp(`jig\\.db\\.pre-v${extra.version}-`));
    await store.close();
    const old = await openStore(store.backupPath!, migrations.concat());
    // The copy was taken before the new migration: it knows nothing of the extra table.
    const tables = old.raw!.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).not.toContain('extra');
    await old.close();
  });

  it('runs a migration all or nothing', async () => {
    const path = dbPath();
    await (await openStore(path)).close();
    const broken: Migration = {
      version: migrations.length + 1,
      name: 'broken',
      async up(db) {
        await sql`CREATE TABLE half (id integer)`.execute(db);
        await sql`THIS IS NOT SQL`.execute(db);
      },
    };
    await expect(openStore(path, [...migrations, broken])).rejects.toThrow();
    const store = await openStore(path);
    const tables = store.raw!.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).not.toContain('half');
    expect(store.schemaVersion).toBe(migrations.length);
    await store.close();
  });

  it('refuses a database newer than the code, leaving it untouched', async () => {
    const path = dbPath();
    await (await openStore(path, [...migrations, extra])).close();
    await expect(openStore(path)).rejects.toThrow(StoreRefusedError);
    await expect(openStore(path)).rejects.toThrow(
      `is at schema version ${extra.version}, newer than this Jig knows (${migrations.length})`,
    );
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('.pre-v'))).toEqual([]);
  });
});
