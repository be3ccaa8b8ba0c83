import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Items filed on a workspace (issue 22): the workspace and its selected members as JSON on the
 * item, and which member a fanned-out session ran for.
 */
export const workspaceItems: Migration = {
  version: 19,
  name: 'workspace-items',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('work_items').addColumn('workspace', 'text').execute();
    await db.schema.alterTable('worker_sessions').addColumn('member', 'text').execute();
  },
};
