import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Whether a gate's reviewer agent decides before a person (`auto_gate` of a create, issue 18):
 * 1 or 0 as filed, null for "as its source has it" (on for what a person files), which is what
 * every item filed before means.
 */
export const autoGate: Migration = {
  version: 13,
  name: 'auto-gate',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('work_items').addColumn('auto_gate', 'integer').execute();
  },
};
