import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The text of each item's attached spec or plan, beside the file in run/attachments: a worker on
 * another machine (issue 27) reads the attachment a serve received from the shared store.
 */
export const attachmentTexts: Migration = {
  version: 27,
  name: 'attachment-texts',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('item_attachments')
      .addColumn('work_item_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('item_attachments_pk', ['work_item_id', 'kind'])
      .execute();
  },
};
