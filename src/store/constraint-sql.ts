import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './migration-type.js';

/*
 * Constraints added to tables that already exist and hold rows (issue 50), the same rule on both
 * stores:
 *
 * - PostgreSQL holds them as real CHECK and FOREIGN KEY constraints. Where rows written before
 *   the constraint already break it, the constraint is added NOT VALID: every new write is held
 *   to it and no existing row is lost or blocks the upgrade.
 * - SQLite cannot add a constraint to an existing table (only a copy of the whole table could,
 *   rewriting the largest tables on every upgrade): the rule is held by BEFORE INSERT / UPDATE
 *   triggers that abort the statement, which, like NOT VALID, judge new writes only. A deleted
 *   parent that rows still point at is refused by a BEFORE DELETE trigger.
 *
 * Values come from the migrations' own frozen lists, never from a request; quoted all the same.
 */

export type Check =
  | { table: string; column: string; in: readonly string[] }
  | { table: string; column: string; flag: true }
  | { table: string; column: string; min: number };

export interface ForeignKey {
  table: string;
  column: string;
  parent: string;
  parentColumn: string;
}

const ident = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`not a plain SQL name: ${s}`);
  return `"${s}"`;
};
const literal = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** True for a value the check admits; NULL passes, as with a CHECK constraint. */
export function checkPredicate(c: Check, row = ''): string {
  const col = `${row}${ident(c.column)}`;
  if ('in' in c) return `${col} IN (${c.in.map(literal).join(', ')})`;
  if ('flag' in c) return `${col} IN (0, 1)`;
  return `${col} >= ${Number(c.min)}`;
}

export const checkName = (c: Check): string => `${c.table}_${c.column}_check`;
export const foreignKeyName = (f: ForeignKey): string => `${f.table}_${f.column}_fkey`;

async function count(db: Kysely<unknown>, text: string): Promise<number> {
  const r = await sql<{ n: number | string }>`${sql.raw(text)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

async function run(db: Kysely<unknown>, text: string): Promise<void> {
  await sql`${sql.raw(text)}`.execute(db);
}

const abort = (what: string): string => `SELECT RAISE(ABORT, ${literal(what)})`;

/** Adds a CHECK (PostgreSQL) or its triggers (SQLite). */
export async function addCheck(db: Kysely<unknown>, ctx: MigrationContext, c: Check): Promise<void> {
  const name = checkName(c);
  const t = ident(c.table);
  if (ctx.dialect === 'postgres') {
    const broken = await count(db, `SELECT count(*) AS n FROM ${t} WHERE NOT (${checkPredicate(c)})`);
    await run(
      db,
      `ALTER TABLE ${t} ADD CONSTRAINT ${ident(name)} CHECK (${checkPredicate(c)})${broken > 0 ? ' NOT VALID' : ''}`,
    );
    return;
  }
  const fail = abort(`CHECK constraint failed: ${name}`);
  const when = `NOT (${checkPredicate(c, 'NEW.')})`;
  await run(
    db,
    `CREATE TRIGGER ${ident(`${name}_insert`)} BEFORE INSERT ON ${t} WHEN ${when} BEGIN ${fail}; END`,
  );
  await run(
    db,
    `CREATE TRIGGER ${ident(`${name}_update`)} BEFORE UPDATE OF ${ident(c.column)} ON ${t} WHEN ${when} BEGIN ${fail}; END`,
  );
}

/** Drops what addCheck made: a later migration that widens a closed set drops it, then adds the new one. */
export async function dropCheck(db: Kysely<unknown>, ctx: MigrationContext, c: Check): Promise<void> {
  const name = checkName(c);
  if (ctx.dialect === 'postgres') {
    await run(db, `ALTER TABLE ${ident(c.table)} DROP CONSTRAINT IF EXISTS ${ident(name)}`);
    return;
  }
  await run(db, `DROP TRIGGER IF EXISTS ${ident(`${name}_insert`)}`);
  await run(db, `DROP TRIGGER IF EXISTS ${ident(`${name}_update`)}`);
}

/** Adds a FOREIGN KEY (PostgreSQL) or its triggers (SQLite), the parent's delete refused while rows point at it. */
export async function addForeignKey(
  db: Kysely<unknown>,
  ctx: MigrationContext,
  f: ForeignKey,
): Promise<void> {
  const name = foreignKeyName(f);
  const [t, col, parent, pcol] = [ident(f.table), ident(f.column), ident(f.parent), ident(f.parentColumn)];
  if (ctx.dialect === 'postgres') {
    const orphans = await count(
      db,
      `SELECT count(*) AS n FROM ${t} c WHERE c.${col} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE p.${pcol} = c.${col})`,
    );
    await run(
      db,
      `ALTER TABLE ${t} ADD CONSTRAINT ${ident(name)} FOREIGN KEY (${col}) REFERENCES ${parent} (${pcol})${orphans > 0 ? ' NOT VALID' : ''}`,
    );
    return;
  }
  const fail = abort(`FOREIGN KEY constraint failed: ${name}`);
  const when = `NEW.${col} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} WHERE ${pcol} = NEW.${col})`;
  await run(
    db,
    `CREATE TRIGGER ${ident(`${name}_insert`)} BEFORE INSERT ON ${t} WHEN ${when} BEGIN ${fail}; END`,
  );
  await run(
    db,
    `CREATE TRIGGER ${ident(`${name}_update`)} BEFORE UPDATE OF ${col} ON ${t} WHEN ${when} BEGIN ${fail}; END`,
  );
  await run(
    db,
    `CREATE TRIGGER ${ident(`${name}_delete`)} BEFORE DELETE ON ${parent} WHEN EXISTS (SELECT 1 FROM ${t} WHERE ${col} = OLD.${pcol}) BEGIN ${fail}; END`,
  );
}
