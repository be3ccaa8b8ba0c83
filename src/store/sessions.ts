import type { Kysely, Transaction } from 'kysely';
import type { Database, WorkerSessionsTable } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export type SessionStatus =
  | 'running'
  | 'done'
  | 'done_with_concerns'
  | 'failed'
  | 'needs_context'
  | 'config_error'
  | 'capped_out'
  | 'paused'
  | 'unknown';

export interface SessionRecord extends Omit<WorkerSessionsTable, 'argv' | 'result' | 'status'> {
  status: SessionStatus;
  argv: string[];
  result: Record<string, unknown> | null;
}

function fromRow(r: WorkerSessionsTable): SessionRecord {
  return {
    ...r,
    status: r.status as SessionStatus,
    argv: JSON.parse(r.argv) as string[],
    result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
  };
}

export async function insertSession(db: Db, s: SessionRecord): Promise<void> {
  await db
    .insertInto('worker_sessions')
    .values({
      ...s,
      argv: JSON.stringify(s.argv),
      result: s.result === null ? null : JSON.stringify(s.result),
    })
    .execute();
}

export async function updateSession(
  db: Db,
  id: string,
  patch: Partial<Omit<SessionRecord, 'id' | 'argv'>>,
): Promise<void> {
  const { result, ...rest } = patch;
  await db
    .updateTable('worker_sessions')
    .set({
      ...rest,
      ...(result !== undefined ? { result: result === null ? null : JSON.stringify(result) } : {}),
    })
    .where('id', '=', id)
    .execute();
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
