import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/*
 * Auto-intake polls (spec drafts.md, `GET /api/intake/checks`): one row per poll, when it ran, how
 * many tracker issues were ready, the items it started and the issues it skipped with why. Lists
 * are JSON; only the newest 500 rows are kept, so the table stays small and is read newest first
 * by its key.
 */
export const intakeChecks: Migration = {
  version: 10,
  name: 'intake-checks',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('intake_checks')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('ready', 'integer', (c) => c.notNull())
      .addColumn('started', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('skipped', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
