import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventKind, EventPayload } from '../contract/event-kinds.js';
import type { EventActor, EventRecord } from '../contract/events.js';
import { onPostgres } from './dialect.js';
import { Prepared } from './prepared.js';
import type { Database } from './schema.js';

/**
 * An event to append: a kind of the catalogue (contract/event-kinds.ts) with that kind's payload.
 * Indexed by kind, so `NewEventOf<'a' | 'b'>` is a union of whole events (a computed kind must bring
 * the payload of the kind it turns out to be) and `NewEventOf<K>` for a generic K is one event.
 */
export type NewEventOf<K extends EventKind> = {
  [P in K]: {
    work_item_id: string;
    type: P;
    by: EventActor;
    node?: string | null;
    payload: EventPayload<P>;
  };
}[K];

type Db = Kysely<Database> | Transaction<Database>;

interface Row {
  seq: number;
  work_item_id: string;
  type: string;
  by: string;
  node: string | null;
  payload: string;
  at: string;
}

export function toRecord(r: Row): EventRecord {
  return {
    seq: r.seq,
    v: 1,
    work_item_id: r.work_item_id,
    type: r.type,
    at: r.at,
    by: r.by as EventActor,
    node: r.node,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
  };
}

type EventRow = Omit<Row, 'seq'>;

/*
 * Every change records at least one event: compiled once (prepared.ts). On SQLite the seq is the
 * row id the insert answers; reading the row back (RETURNING) cost a third of the insert.
 */
const appendQuery = new Prepared<EventRow, never>(
  ['work_item_id', 'type', 'by', 'node', 'payload', 'at'],
  (db, row) => db.insertInto('events').values(row),
);

/**
 * On PostgreSQL the seq comes from the counter row (migration 24), in the same statement: rolled
 * back with a failed unit, held to the commit, so seq stays gap-free and in commit order.
 */
const appendCounted = (row: EventRow) =>
  sql<Row>`WITH s AS (UPDATE event_seq SET last = last + 1 WHERE id = 1 RETURNING last)
    INSERT INTO events (seq, work_item_id, type, "by", node, payload, at)
    SELECT s.last, ${row.work_item_id}, ${row.type}, ${row.by}, ${row.node}, ${row.payload}::jsonb, ${row.at}::timestamptz FROM s
    RETURNING *`;

/** Appends one event; call inside the transaction of the change it records. */
export async function appendEvent<K extends EventKind>(
  db: Db,
  e: NewEventOf<K>,
  at = new Date().toISOString(),
): Promise<EventRecord> {
  const values: EventRow = {
    work_item_id: e.work_item_id,
    type: e.type,
    by: e.by,
    node: e.node ?? null,
    payload: JSON.stringify(e.payload),
    at,
  };
  if (onPostgres(db)) {
    const row = (await appendCounted(values).execute(db)).rows[0];
    if (!row) throw new Error('appendEvent: the insert returned no row');
    return toRecord(row);
  }
  const { insertId } = await appendQuery.run(db, values);
  if (insertId === undefined) throw new Error('appendEvent: the insert answered no row id');
  return toRecord({ seq: Number(insertId), ...values });
}

export interface EventQuery {
  workItemId?: string;
  after?: number;
  before?: number;
  limit: number;
  type?: string;
}

/**
 * A page of events in seq order. Forward (`after`, the default) reads the oldest first; backward
 * (`before`) reads the newest `limit` before that seq, still answered oldest first.
 */
export async function readEvents(db: Db, q: EventQuery): Promise<EventRecord[]> {
  let query = db.selectFrom('events').selectAll();
  if (q.workItemId !== undefined) query = query.where('work_item_id', '=', q.workItemId);
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.before !== undefined) {
    const rows = await query.where('seq', '<', q.before).orderBy('seq', 'desc').limit(q.limit).execute();
    return rows.reverse().map(toRecord);
  }
  const rows = await query
    .where('seq', '>', q.after ?? 0)
    .orderBy('seq', 'asc')
    .limit(q.limit)
    .execute();
  return rows.map(toRecord);
}

export async function lastSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/** The kinds that answer a gate request: a decision, a skip of the gate, or the gate asking again. */
const GATE_ANSWERS = ['gate_approved', 'gate_rejected', 'node_skipped', 'gate_requested'];

/**
 * What answered the gate request `request` (the seq of a `gate_requested` at `gate`): the first
 * decision, skip or new request of that gate after it, or null when none came yet.
 */
export async function gateAnswer(
  db: Db,
  id: string,
  gate: string,
  request: number,
): Promise<EventRecord | null> {
  const row = await db
    .selectFrom('events')
    .selectAll()
    .where('work_item_id', '=', id)
    .where('node', '=', gate)
    .where('seq', '>', request)
    .where('type', 'in', GATE_ANSWERS)
    .orderBy('seq', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}
