import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Configuration drafts (spec drafts.md, issue 16): one open draft per area and key, holding the
 * text of each file it changed, the digest of each file as it was when it joined, and what each
 * file last parsed to (shown while its text does not parse); and the
 * draft's undo steps, each the draft as it was before one request (at most 80 kept). Steps live in
 * their own rows so a keystroke-rate PUT writes one small row, not the whole history.
 */
export const drafts: Migration = {
  version: 9,
  name: 'drafts',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('drafts')
      .addColumn('area', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('base', 'text', (c) => c.notNull())
      .addColumn('last_parsed', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('rewritten', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('changes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('problems', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('drafts_pk', ['area', 'key'])
      .execute();
    await db.schema
      .createTable('draft_steps')
      .addColumn('area', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('file', 'text')
      .addColumn('before', 'text')
      .addColumn('touched_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('draft_steps_pk', ['area', 'key', 'seq'])
      .execute();
  },
};
