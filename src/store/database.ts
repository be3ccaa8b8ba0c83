import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { Kysely, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import type { Database } from './schema.js';
import { migrations as defaultMigrations, type Migration } from './migrations.js';
import { withoutCredentials } from '../core/diagnostics/credentials.js';
import { isPostgresUrl } from './store-url.js';
import { StoreRefusedError } from './store-error.js';
import { soleLease, type LeadChange, type Lease } from './lease.js';
import { WalCheckpoints, type CheckpointHooks } from './wal-checkpoints.js';

export { StoreRefusedError };

export interface Store {
  /** SQLite (a file, the default) or PostgreSQL (`JIG_DATABASE_URL`, docs/scale-out.md). */
  kind: 'sqlite' | 'postgres';
  /**
   * Where it is, as a person may be shown it: the SQLite file, or the PostgreSQL URL without its
   * password or any credential in its query (core/diagnostics/credentials.ts).
   */
  location: string;
  db: Kysely<Database>;
  /** The SQLite connection itself; null on PostgreSQL. */
  raw: BetterSqlite3.Database | null;
  schemaVersion: number;
  /** The copy taken before migrating, when one was needed. */
  backupPath: string | null;
  /**
   * A read whose rows come back as arrays in the query's column order. Building an object per row
   * costs more than the query itself for wide rows (a page of 100 work items: 0.75 ms as objects,
   * 0.3 ms as arrays). It waits for the connection like any Kysely query, so it never reads inside
   * another unit's open transaction.
   */
  readArrays(q: CompiledQuery): Promise<unknown[][]>;
  /**
   * A `count(*)` read again only when the store has changed since it was last read (this
   * connection's changes, or another connection's commits): lists are read far more often than
   * items change, and counting 10 000 rows costs a quarter of a millisecond.
   */
  countCached(q: CompiledQuery): Promise<number>;
  /**
   * PostgreSQL: calls `heard` on each `NOTIFY` on the channel from any process sharing the database
   * (and after each reconnect). SQLite has one process: there is nothing to hear.
   */
  listen(channel: string, heard: () => void): Promise<void>;
  /**
   * Leadership among the processes sharing the store (store/leader.ts): SQLite's one process leads
   * at once; on PostgreSQL one `jig serve` at a time, handed over when it stops or dies.
   */
  lead(onChange: LeadChange, onError: (err: unknown) => void): Promise<Lease>;
  close(): Promise<void>;
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and preparing is a
 * measurable share of a trigger's cost. Queries are built from a fixed set of shapes, so a small
 * bounded cache keyed by SQL text catches nearly all of them.
 */
function withStatementCache(raw: BetterSqlite3.Database, max = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return new Proxy(raw, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') {
        const value = Reflect.get(target, prop, receiver) as unknown;
        // Native methods check `this`: call them on the database itself, not on the proxy.
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      return (sql: string) => {
        let stmt = cache.get(sql);
        if (!stmt) {
          stmt = target.prepare(sql);
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          cache.set(sql, stmt);
        }
        return stmt;
      };
    },
  });
}

async function currentVersion(db: Kysely<unknown>): Promise<number> {
  await sql`CREATE TABLE IF NOT EXISTS jig_schema (id integer PRIMARY KEY, version integer NOT NULL, applied_at text NOT NULL)`.execute(
    db,
  );
  const row = await sql<{ v: number | null }>`SELECT max(version) AS v FROM jig_schema`.execute(db);
  return row.rows[0]?.v ?? 0;
}

/**
 * Opens (creating when missing) the SQLite store in WAL mode with foreign keys on, and brings its
 * schema to the code's version. A store written by a newer Jig is refused rather than guessed at;
 * a store that needs migrating is copied first.
 */
export async function openStore(
  path: string,
  migrations: Migration[] = defaultMigrations,
  hooks: CheckpointHooks = {},
): Promise<Store> {
  if (isPostgresUrl(path)) {
    // The driver loads only here: most homes are SQLite, and it costs a start some 20 ms.
    const { openPostgres } = await import('./postgres.js');
    const pg = await openPostgres(path, migrations);
    return { kind: 'postgres', location: withoutCredentials(path), raw: null, backupPath: null, ...pg };
  }
  const existed = existsSync(path);
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  // Statements in array mode are kept apart from Kysely's: the mode sticks to a statement.
  const arrayStatements = new Map<string, BetterSqlite3.Statement>();
  const arrays = (text: string): BetterSqlite3.Statement => {
    let stmt = arrayStatements.get(text);
    if (!stmt) {
      stmt = raw.prepare(text).raw(true);
      if (arrayStatements.size >= 200) arrayStatements.clear();
      arrayStatements.set(text, stmt);
    }
    return stmt;
  };
  const totalChanges = raw.prepare('SELECT total_changes()').pluck();
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  const changeVersion = (): string => `${String(totalChanges.get())}:${String(dataVersion.get())}`;
  const counts = new Map<string, { version: string; n: number }>();
  // Migrations see an untyped schema (each knows the tables of its own time): a second Kysely on the
  // same connection, never destroyed (that would close the connection the store keeps).
  const any = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    const version = await currentVersion(any);
    const latest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
    if (version > latest) {
      throw new StoreRefusedError(
        `${path} is at schema version ${version}, newer than this Jig knows (${latest}). ` +
          'It was written by a newer Jig: upgrade Jig, or start with another JIG_HOME.',
      );
    }
    let backupPath: string | null = null;
    const pending = migrations.filter((m) => m.version > version).sort((a, b) => a.version - b.version);
    if (pending.length > 0 && existed && version > 0) {
      backupPath = `${path}.pre-v${latest}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await raw.backup(backupPath);
    }
    for (const m of pending) {
      await any.transaction().execute(async (trx) => {
        await m.up(trx, { dialect: 'sqlite' });
        await sql`INSERT INTO jig_schema (version, applied_at) VALUES (${m.version}, ${new Date().toISOString()})`.execute(
          trx,
        );
      });
    }
    const checkpoints = new WalCheckpoints(raw, path, hooks);
    checkpoints.watch();
    return {
      kind: 'sqlite',
      location: path,
      db,
      raw,
      schemaVersion: latest,
      backupPath,
      readArrays: (q) =>
        db.connection().execute(async () => arrays(q.sql).all(...q.parameters) as unknown[][]),
      countCached: (q) =>
        db.connection().execute(async () => {
          const key = `${q.sql}\u0000${JSON.stringify(q.parameters)}`;
          const version = changeVersion();
          const hit = counts.get(key);
          if (hit && hit.version === version) return hit.n;
          const n = Number((arrays(q.sql).all(...q.parameters)[0] as unknown[] | undefined)?.[0] ?? 0);
          if (counts.size >= 200) counts.clear();
          counts.set(key, { version, n });
          return n;
        }),
      listen: async () => undefined,
      lead: (onChange) => soleLease(onChange),
      async close() {
        await checkpoints.close();
        await db.destroy();
      },
    };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}
