import type { Kysely, Transaction } from 'kysely';
import { sessionStatus, type SessionStatus } from '../contract/session-status.js';
import type { Database, WorkerSessionsTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export type { SessionStatus };

export interface SessionRecord extends Omit<WorkerSessionsTable, 'argv' | 'result' | 'status' | 'readout'> {
  status: SessionStatus;
  argv: string[];
  result: Record<string, unknown> | null;
  /** What the agent's stream said (is_error, error_message, rate_limit, …); null for commands. */
  readout: Record<string, unknown> | null;
}

const parse = (v: string | null): Record<string, unknown> | null =>
  v === null ? null : (JSON.parse(v) as Record<string, unknown>);

function fromRow(r: WorkerSessionsTable): SessionRecord {
  return {
    ...r,
    status: sessionStatus(r.status),
    argv: JSON.parse(r.argv) as string[],
    result: parse(r.result),
    readout: parse(r.readout),
  };
}

/** The columns a session starts with empty: agent launches fill most, a fanned-out run its member. */
export const NO_AGENT = {
  harness: null,
  provider: null,
  model: null,
  cli_session_id: null,
  tokens_input: 0,
  tokens_output: 0,
  tokens_cache_read: 0,
  tokens_cache_write: 0,
  cost_usd: null,
  cost_source: null,
  readout: null,
  note: null,
  member: null,
  worker: null,
} as const;

export async function insertSession(db: Db, s: SessionRecord): Promise<void> {
  await db
    .insertInto('worker_sessions')
    .values({
      ...s,
      argv: JSON.stringify(s.argv),
      result: s.result === null ? null : JSON.stringify(s.result),
      readout: s.readout === null ? null : JSON.stringify(s.readout),
    })
    .execute();
}

/** Takes back the row of a launch that never started (the process could not be spawned). */
export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('worker_sessions').where('id', '=', id).execute();
}

type SessionPatch = Partial<Omit<SessionRecord, 'id' | 'argv'>>;

/** A patch as columns: the JSON ones as text. */
function columnsOf(patch: SessionPatch) {
  const { result, readout, ...rest } = patch;
  return {
    ...rest,
    ...(result !== undefined ? { result: result === null ? null : JSON.stringify(result) } : {}),
    ...(readout !== undefined ? { readout: readout === null ? null : JSON.stringify(readout) } : {}),
  };
}

export async function updateSession(
  db: Db,
  id: string,
  patch: Partial<Omit<SessionRecord, 'id' | 'argv'>>,
): Promise<void> {
  await db.updateTable('worker_sessions').set(columnsOf(patch)).where('id', '=', id).execute();
}

/**
 * A silent worker's running sessions of an item, given up when another process takes the item over:
 * listed as paused (the node runs again) with the reason. Answers their ids.
 */
export async function releaseSessions(
  db: Db,
  itemId: string,
  worker: string,
  note: string,
  at: string,
): Promise<string[]> {
  const rows = await db
    .updateTable('worker_sessions')
    .set({ status: 'paused', note, exited_at: at })
    .where('work_item_id', '=', itemId)
    .where('status', '=', 'running')
    .where('worker', '=', worker)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort();
}

/**
 * A worker's sessions the store no longer lists as running but whose end it never recorded (another
 * process took their item over while this one was silent): the ones whose process may still live.
 */
export async function releasedSessions(
  db: Db,
  worker: string,
  pidlessSince: string,
): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('worker_sessions')
    .selectAll()
    .where('worker', '=', worker)
    .where('status', '!=', 'running')
    .where('exit_code', 'is', null)
    // One without a pid is looked for by its command line: only recent ones, each costs a scan.
    .where((eb) => eb.or([eb('pid', 'is not', null), eb('started_at', '>=', pidlessSince)]))
    .execute();
  return rows.map(fromRow);
}

/**
 * Records how a session ended, unless it no longer runs as far as the store knows (another worker
 * took its item over and released it): answers whether this process's record was written.
 */
export async function finishSession(
  db: Db,
  id: string,
  patch: Partial<Omit<SessionRecord, 'id' | 'argv'>>,
): Promise<boolean> {
  const out = await db
    .updateTable('worker_sessions')
    .set(columnsOf(patch))
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(out.numUpdatedRows) > 0;
}

export async function getSession(db: Db, id: string): Promise<SessionRecord | null> {
  const r = await db.selectFrom('worker_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? fromRow(r) : null;
}

export async function sessionsOf(db: Db, itemId: string): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('worker_sessions')
    .selectAll()
    .where('work_item_id', '=', itemId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

export async function runningSessions(db: Db, itemId?: string): Promise<SessionRecord[]> {
  let q = db.selectFrom('worker_sessions').selectAll().where('status', '=', 'running');
  if (itemId !== undefined) q = q.where('work_item_id', '=', itemId);
  return (await q.execute()).map(fromRow);
}

/** Dollars spent by sessions started since `iso` (every item), and how many had no known cost. */
export async function spentSince(db: Db, iso: string): Promise<{ usd: number; unpriced: number }> {
  const r = await db
    .selectFrom('worker_sessions')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('cost_usd'), eb.val(0)).as('usd'),
      eb.fn
        .countAll<number>()
        .filterWhere((w) => w.and([w('provider', 'is not', null), w('cost_usd', 'is', null)]))
        .as('unpriced'),
    ])
    .where('started_at', '>=', iso)
    .executeTakeFirstOrThrow();
  return { usd: Number(r.usd), unpriced: Number(r.unpriced) };
}
