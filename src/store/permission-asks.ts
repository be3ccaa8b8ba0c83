import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AskState, type PermissionAsk } from '../contract/permission-asks.js';
import type { Database } from './schema.js';

/** Queries of `permission_asks` (migration 16). */

const Input = z.record(z.string(), z.unknown());

function askOf(r: Database['permission_asks']): PermissionAsk {
  return {
    id: r.id,
    work_item_id: r.item_id,
    session: r.session,
    tool_name: r.tool_name,
    // Written from a validated object by insertAsk; read back through the same schema.
    input: Input.parse(JSON.parse(r.input)),
    tool_use_id: r.tool_use_id,
    state: AskState.parse(r.state),
    note: r.note,
    created_at: r.created_at,
    decided_at: r.decided_at,
    expires_at: r.expires_at,
  };
}

export async function insertAsk(db: Kysely<Database>, a: PermissionAsk): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('permission_asks')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    await trx
      .insertInto('permission_asks')
      .values({
        id: a.id,
        seq: Number(last?.seq ?? 0) + 1,
        item_id: a.work_item_id,
        session: a.session,
        tool_name: a.tool_name,
        input: JSON.stringify(a.input),
        tool_use_id: a.tool_use_id,
        state: a.state,
        note: a.note,
        created_at: a.created_at,
        decided_at: a.decided_at,
        expires_at: a.expires_at,
      })
      .execute();
  });
}

export async function getAsk(db: Kysely<Database>, id: string): Promise<PermissionAsk | null> {
  const r = await db.selectFrom('permission_asks').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? askOf(r) : null;
}

export async function listAsks(
  db: Kysely<Database>,
  where: { item?: string; state?: AskState },
): Promise<PermissionAsk[]> {
  let q = db.selectFrom('permission_asks').selectAll();
  if (where.item !== undefined) q = q.where('item_id', '=', where.item);
  if (where.state !== undefined) q = q.where('state', '=', where.state);
  const rows = await q.orderBy('seq').limit(500).execute();
  return rows.map(askOf);
}

/** Decides a pending ask; false when it was no longer pending (someone decided first). */
export async function decideAsk(
  db: Kysely<Database>,
  id: string,
  state: Exclude<AskState, 'pending'>,
  note: string | null,
  at: string,
): Promise<boolean> {
  const r = await db
    .updateTable('permission_asks')
    .set({ state, note, decided_at: at })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Pending asks past their time, as of `now` (ISO text compares in order). */
export async function overdueAsks(db: Kysely<Database>, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('permission_asks')
    .select('id')
    .where('state', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
  return rows.map((r) => r.id);
}
