import pg from 'pg';
import {
  ColumnDefinitionNode,
  CompiledQuery,
  DataTypeNode,
  GeneratedNode,
  Kysely,
  OperationNodeTransformer,
  PostgresDialect,
  PostgresDriver,
  sql,
  type DatabaseConnection,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PostgresDialectConfig,
  type QueryResult,
  type RootOperationNode,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely';
import { needsCleaning, pgTypes, postgresParameter } from './postgres-values.js';
import type { Migration } from './migration-type.js';
import { StoreRefusedError } from './store-error.js';
import { postgresLease } from './leader.js';
import type { LeadChange, Lease } from './lease.js';
import type { Database } from './schema.js';

/*
 * PostgreSQL as Jig's store (issue 27, docs/scale-out.md): the same Kysely queries and numbered
 * migrations as SQLite. Two things differ underneath and are made the same here, so no caller
 * needs to know which store it has:
 *
 * - SQLite has one writer: every transaction runs alone. On PostgreSQL, transactions from the
 *   pool (and from other processes) overlap, and a read-then-write under READ COMMITTED would
 *   lose updates. Every transaction therefore takes one advisory lock first, held to its commit:
 *   Jig's transactions are short and its write rate is a person's, so one writer at a time costs
 *   nothing measurable and keeps every existing read-modify-write correct across processes.
 * - Values: times, JSON and numbers are read back as SQLite gives them (postgres-values.ts).
 */

/** The advisory lock key every write transaction takes (any constant; "jig" on a phone keypad). */
export const WRITE_LOCK_KEY = 544;
const WRITE_LOCK = CompiledQuery.raw(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);

/**
 * PostgreSQL text cannot hold U+0000, which SQLite stores, nor jsonb the escape `\u0000`: a string
 * parameter carrying one is sent with U+FFFD in its place, so a description or comment pasted with
 * a NUL is kept (one character shown as �) rather than refused with a 500 (postgres-values.ts).
 */
function withoutNul(c: DatabaseConnection): DatabaseConnection {
  const clean = (q: CompiledQuery): CompiledQuery =>
    q.parameters.some(needsCleaning) ? { ...q, parameters: q.parameters.map(postgresParameter) } : q;
  return new Proxy(c, {
    get(target, prop) {
      if (prop === 'executeQuery') return (q: CompiledQuery) => target.executeQuery(clean(q));
      if (prop === 'streamQuery')
        return (q: CompiledQuery, chunk?: number) => target.streamQuery(clean(q), chunk);
      // The driver's own methods read private fields: called on the connection itself.
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

class SerialDriver extends PostgresDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return withoutNul(await super.acquireConnection());
  }

  override async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(c, settings);
    await c.executeQuery(WRITE_LOCK);
  }

  // The pool is shared by the store's Kysely and the migrations' one, and a Kysely that never ran a
  // query would not end it: the store ends it itself, once, on close.
  override async destroy(): Promise<void> {}
}

class SerialDialect extends PostgresDialect {
  constructor(private readonly cfg: PostgresDialectConfig) {
    super(cfg);
  }
  override createDriver() {
    return new SerialDriver(this.cfg);
  }
}

/**
 * The migrations' portable column types read the PostgreSQL way: an auto-incremented or rowid-like
 * `integer primary key` is an identity column, every `integer` a `bigint` (token counts and sums
 * pass 2^31), every `real` a `double precision` (PostgreSQL's `real` is four bytes: dollars lose
 * cents). Applied to migrations only, so the SQL SQLite runs stays exactly as shipped.
 */
class PortableColumns extends OperationNodeTransformer {
  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const n = super.transformColumnDefinition(node);
    const type = DataTypeNode.is(n.dataType) ? n.dataType.dataType : null;
    const dataType =
      type === 'real'
        ? DataTypeNode.create('double precision')
        : type === 'integer'
          ? DataTypeNode.create('bigint')
          : n.dataType;
    const identity = n.autoIncrement === true || (type === 'integer' && n.primaryKey === true);
    return Object.freeze({
      ...n,
      dataType,
      autoIncrement: false,
      ...(identity ? { generated: GeneratedNode.create({ byDefault: true, identity: true }) } : {}),
    });
  }
}

class PortableSchema implements KyselyPlugin {
  private readonly t = new PortableColumns();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.t.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

export interface PostgresOpen {
  db: Kysely<Database>;
  schemaVersion: number;
  readArrays(q: CompiledQuery): Promise<unknown[][]>;
  countCached(q: CompiledQuery): Promise<number>;
  listen(channel: string, heard: () => void): Promise<void>;
  lead(onChange: LeadChange, onError: (err: unknown) => void): Promise<Lease>;
  close(): Promise<void>;
}

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1_000;

/**
 * One connection held open for `LISTEN` (a pooled one would be handed to queries between
 * notifications). A lost connection is made again; `heard` is called after each (re)connect too,
 * since notifications sent meanwhile are gone, so the listener reads what it missed.
 */
class Listener {
  private client: pg.Client | null = null;
  private closed = false;
  private readonly channels = new Map<string, () => void>();

  constructor(private readonly url: string) {}

  async listen(channel: string, heard: () => void): Promise<void> {
    this.channels.set(channel, heard);
    if (this.client) await this.client.query(`LISTEN "${channel}"`);
    else await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (): void => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.connect().catch(() => undefined), RELISTEN_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => this.channels.get(n.channel)?.());
    try {
      await client.connect();
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      for (const channel of this.channels.keys()) await client.query(`LISTEN "${channel}"`);
    } catch {
      this.client = client;
      lost();
      return;
    }
    this.client = client;
    for (const heard of this.channels.values()) heard();
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => undefined);
  }
}

/**
 * Opens a PostgreSQL store and brings its schema to the code's version. Several processes may
 * start at once: each migration runs under the write lock and is skipped when another process
 * applied it first.
 */
export async function openPostgres(url: string, migrations: Migration[]): Promise<PostgresOpen> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  const db = new Kysely<Database>({ dialect: new SerialDialect({ pool }) });
  const listener = new Listener(url);
  // Migrations see an untyped schema (each knows the tables of its own time): a second Kysely on the
  // same pool.
  const any = new Kysely<unknown>({ dialect: new SerialDialect({ pool }) });
  try {
    await any.transaction().execute(async (trx) => {
      await sql`CREATE TABLE IF NOT EXISTS jig_schema (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, version integer NOT NULL UNIQUE, applied_at text NOT NULL)`.execute(
        trx,
      );
    });
    const latest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
    const version = Number(
      (await sql<{ v: number | null }>`SELECT max(version) AS v FROM jig_schema`.execute(any)).rows[0]?.v ??
        0,
    );
    if (version > latest) {
      throw new StoreRefusedError(
        `the database is at schema version ${version}, newer than this Jig knows (${latest}). ` +
          'It was written by a newer Jig: upgrade Jig, or point JIG_DATABASE_URL at another database.',
      );
    }
    const portable = any.withPlugin(new PortableSchema());
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (m.version <= version) continue;
      await portable.transaction().execute(async (trx) => {
        const done = await sql`SELECT 1 FROM jig_schema WHERE version = ${m.version}`.execute(trx);
        if (done.rows.length > 0) return;
        await m.up(trx, { dialect: 'postgres' });
        await sql`INSERT INTO jig_schema (version, applied_at) VALUES (${m.version}, ${new Date().toISOString()})`.execute(
          trx,
        );
      });
    }
    return {
      db,
      schemaVersion: latest,
      // Rows come back as objects in the select's column order.
      readArrays: async (q) =>
        (await db.executeQuery<Record<string, unknown>>(q)).rows.map((r) => Object.values(r)),
      // No cheap "has anything changed" stamp here: the count is read each time (an index scan).
      countCached: async (q) => {
        const row = (await db.executeQuery<Record<string, unknown>>(q)).rows[0];
        return Number(row ? Object.values(row)[0] : 0);
      },
      listen: (channel, heard) => listener.listen(channel, heard),
      lead: (onChange, onError) => postgresLease(url, onChange, onError),
      async close() {
        await listener.close();
        await db.destroy();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end();
    throw err;
  }
}
