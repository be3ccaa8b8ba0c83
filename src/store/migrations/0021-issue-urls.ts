import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Where an item's tracker issue lives on the web (issue 23, trackers beyond beads): a forge issue,
 * a Linear or a Jira issue has a page the board and the CLI link to; a bead has none (null).
 */
export const issueUrls: Migration = {
  version: 21,
  name: 'issue-urls',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('item_issues').addColumn('url', 'text').execute();
  },
};
