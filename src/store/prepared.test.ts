import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { Prepared } from './prepared.js';

interface Db {
  t: { id: string; n: number };
}

/** A PostgreSQL dialect whose connection records the SQL it is sent and answers no rows. */
function recordingPostgres(seen: CompiledQuery[]): Kysely<Db> {
  const connection: DatabaseConnection = {
    executeQuery: async (q) => {
      seen.push(q);
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error('not streamed');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<Db>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

describe('Prepared', () => {
  it('compiles once per dialect: a SQLite store and a PostgreSQL one in one process each get their own SQL', async () => {
    const insert = new Prepared<{ id: string; n: number }, never>(['id', 'n'], (db, p) =>
      (db as unknown as Kysely<Db>).insertInto('t').values({ id: p.id, n: p.n }),
    );
    const raw = new BetterSqlite3(':memory:');
    raw.exec('CREATE TABLE t (id text PRIMARY KEY, n integer NOT NULL)');
    const sqlite = new Kysely<Db>({ dialect: new SqliteDialect({ database: raw }) });
    const seen: CompiledQuery[] = [];
    const postgres = recordingPostgres(seen);

    await insert.run(sqlite as never, { id: 'a', n: 1 });
    await insert.run(postgres as never, { id: 'b', n: 2 });
    await insert.run(sqlite as never, { id: 'c', n: 3 });
    await insert.run(postgres as never, { id: 'd', n: 4 });

    expect(raw.prepare('SELECT id, n FROM t ORDER BY id').all()).toEqual([
      { id: 'a', n: 1 },
      { id: 'c', n: 3 },
    ]);
    expect(seen.map((q) => [q.sql, q.parameters])).toEqual([
      ['insert into "t" ("id", "n") values ($1, $2)', ['b', 2]],
      ['insert into "t" ("id", "n") values ($1, $2)', ['d', 4]],
    ]);
    await sqlite.destroy();
  });
});
