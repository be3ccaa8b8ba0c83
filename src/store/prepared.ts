import { CompiledQuery, type Compilable, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

const MARK = '\u0000jig-param:';

/**
 * A query whose shape never changes, compiled once by the dialect in use and then run with new
 * values. Kysely builds and compiles a query anew on every call: for the 30-column insert of a work
 * item that is about 40 µs, a large share of filing one; the SQL text is the same every time. The
 * builder is called once with a marker in place of each value, and the compiled parameters are read
 * back to learn which value goes where, so the query is still written with Kysely and compiled by
 * whichever dialect runs it: once per dialect, since one process may hold a SQLite store and a
 * PostgreSQL one (a copy from one to the other; tests that start servers of both in one process).
 */
export class Prepared<P extends object, R> {
  /** Per dialect, by its adapter's class: SQLite's `?` and PostgreSQL's `$1` are different SQL. */
  private readonly compiled = new Map<unknown, { sql: string; keys: (keyof P)[] }>();

  /** `keys`: every parameter the builder reads, in any order. */
  constructor(
    private readonly keys: readonly (keyof P & string)[],
    private readonly build: (db: Db, p: P) => Compilable<R>,
  ) {}

  private compile(db: Db): { sql: string; keys: (keyof P)[] } {
    const markers: Record<string, string> = {};
    for (const k of this.keys) markers[k] = `${MARK}${k}`;
    // The builder only places the values; markers stand in for them while the SQL is compiled.
    const c = this.build(db, markers as P).compile();
    const keys = c.parameters.map((v) => {
      if (typeof v !== 'string' || !v.startsWith(MARK)) {
        throw new Error(`prepared query binds a value that is not a parameter: ${String(v)} in ${c.sql}`);
      }
      return v.slice(MARK.length) as keyof P;
    });
    return { sql: c.sql, keys };
  }

  async run(db: Db, params: P): Promise<QueryResult<R>> {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = this.compiled.get(dialect);
    if (!compiled) {
      compiled = this.compile(db);
      this.compiled.set(dialect, compiled);
    }
    const { sql, keys } = compiled;
    return db.executeQuery<R>(
      CompiledQuery.raw(
        sql,
        keys.map((k) => params[k]),
      ),
    );
  }
}
