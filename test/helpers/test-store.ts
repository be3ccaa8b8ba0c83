import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { pgTypes } from '../../src/store/postgres-values.js';

/*
 * The store a test's server uses, SQLite (the default) or PostgreSQL: in the postgres project
 * (vitest.config.ts, `JIG_TEST_STORE=postgres` in its workers) the global setup starts one PostgreSQL
 * server and every `startJig` home gets a database of its own, made from a migrated template. Tests that read or change a row the API does
 * not show go through `dbAll`/`dbRun`, written with `?` placeholders, on whichever store it is.
 */

/** The postgres project's server and template (test/global-setup.ts), or null: SQLite. */
function provided(): { url: string; template: string } | null {
  return process.env.JIG_TEST_STORE === 'postgres' ? inject('jigTestPostgres') : null;
}

/** The PostgreSQL server of this run (`postgres://postgres@127.0.0.1:PORT`), or null: SQLite. */
export function testPostgres(): string | null {
  return provided()?.url ?? null;
}

/** The database a home's server uses on PostgreSQL: named after the home, so a restart finds it. */
export function databaseOf(home: string): string {
  return `jig_${createHash('sha256').update(home).digest('hex').slice(0, 16)}`;
}

const made = new Set<string>();

/** Makes a home's database (once) and answers its URL; null on SQLite. */
export async function databaseFor(home: string): Promise<string | null> {
  const base = testPostgres();
  if (base === null) return null;
  const name = databaseOf(home);
  if (!made.has(name)) {
    const c = new pg.Client({ connectionString: `${base}/postgres` });
    await c.connect();
    try {
      const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rows.length === 0)
        await c.query(`CREATE DATABASE "${name}" TEMPLATE "${provided()?.template ?? 'template0'}"`);
    } finally {
      await c.end();
    }
    made.add(name);
  }
  return `${base}/${name}`;
}

const numbered = (sql: string): string => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** Rows of a query on a home's store (`?` placeholders on both). */
export async function dbAll<T = Record<string, unknown>>(
  home: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const base = testPostgres();
  if (base === null) {
    const db = new Database(join(home, 'run', 'jig.db'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  // Values read as the store reads them: times as ISO strings, JSON as its text.
  const c = new pg.Client({ connectionString: `${base}/${databaseOf(home)}`, types: pgTypes });
  await c.connect();
  try {
    return (await c.query(numbered(sql), params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Changes rows of a home's store (`?` placeholders on both), as a test sets up what the API cannot. */
export async function dbRun(home: string, sql: string, params: unknown[] = []): Promise<void> {
  const base = testPostgres();
  if (base === null) {
    const db = new Database(join(home, 'run', 'jig.db'));
    try {
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const c = new pg.Client({ connectionString: `${base}/${databaseOf(home)}`, types: pgTypes });
  await c.connect();
  try {
    await c.query(numbered(sql), params);
  } finally {
    await c.end();
  }
}

/** The environment an in-process server of a home runs with: its database under `npm run test:pg`. */
export async function serverEnv(home: string): Promise<NodeJS.ProcessEnv> {
  const database = await databaseFor(home);
  return { JIG_HOME: home, ...(database ? { JIG_DATABASE_URL: database } : {}) };
}
