import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a note per task path for the item; a path named again replaces its note. */
export async function setTaskSteers(
  db: Db,
  id: string,
  steers: Readonly<Record<string, string>>,
  at: string,
): Promise<void> {
  const rows = Object.entries(steers).map(([task_path, note]) => ({
    item_id: id,
    task_path,
    note,
    created_at: at,
  }));
  if (rows.length === 0) return;
  await db
    .insertInto('work_item_task_steers')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['item_id', 'task_path']).doUpdateSet((eb) => ({
        note: eb.ref('excluded.note'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

/** The note waiting for the next launch of this task, or null. */
export async function taskSteerOf(db: Db, id: string, path: string): Promise<string | null> {
  const row = await db
    .selectFrom('work_item_task_steers')
    .select('note')
    .where('item_id', '=', id)
    .where('task_path', '=', path)
    .executeTakeFirst();
  return row?.note ?? null;
}

/** Every note waiting, by task path. */
export async function taskSteersOf(db: Db, id: string): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('work_item_task_steers')
    .select(['task_path', 'note'])
    .where('item_id', '=', id)
    .orderBy('task_path')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.task_path, r.note]));
}

/** The launch that carried the note took it: it is delivered once. */
export async function dropTaskSteer(db: Db, id: string, path: string, note: string): Promise<void> {
  // Only the note delivered: one stored meanwhile for the same task waits for the next launch.
  await db
    .deleteFrom('work_item_task_steers')
    .where('item_id', '=', id)
    .where('task_path', '=', path)
    .where('note', '=', note)
    .execute();
}
