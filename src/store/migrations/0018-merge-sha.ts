import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** The commit a merge made on the base branch: what the post-merge CI wait watches (issue 20). */
export const mergeSha: Migration = {
  version: 18,
  name: 'merge-sha',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('merge_requests').addColumn('merge_sha', 'text').execute();
  },
};
