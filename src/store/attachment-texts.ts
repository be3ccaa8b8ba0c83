import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Queries of `item_attachments` (migration 27): an attachment's text, readable from any machine. */

export async function saveAttachmentText(db: Db, id: string, kind: string, text: string): Promise<void> {
  await db
    .insertInto('item_attachments')
    .values({ work_item_id: id, kind, text })
    .onConflict((oc) => oc.columns(['work_item_id', 'kind']).doUpdateSet({ text }))
    .execute();
}

export async function deleteAttachmentText(db: Db, id: string, kind: string): Promise<void> {
  await db.deleteFrom('item_attachments').where('work_item_id', '=', id).where('kind', '=', kind).execute();
}

export async function attachmentTextOf(db: Db, id: string, kind: string): Promise<string | null> {
  const row = await db
    .selectFrom('item_attachments')
    .select('text')
    .where('work_item_id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.text ?? null;
}
