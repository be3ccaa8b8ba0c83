import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/** Work items and the append-only event log (issue: items, repos, events and triggers). */
export const itemsAndEvents: Migration = {
  version: 3,
  name: 'work_items_and_events',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('work_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('repo', 'text', (c) => c.notNull())
      .addColumn('branch', 'text', (c) => c.notNull())
      .addColumn('base_branch', 'text')
      .addColumn('base_ref', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('attachments', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('agent_overrides', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('node_overrides', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('policy_override', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('budget_usd', 'real')
      .addColumn('spent_usd', 'real', (c) => c.notNull().defaultTo(0))
      .addColumn('chain_definition', 'text')
      .addColumn('policy_snapshot', 'text')
      .addColumn('current_node', 'text')
      .addColumn('stop_kind', 'text')
      .addColumn('stop_reason', 'text')
      .addColumn('suggested_action', 'text')
      .addColumn('worktree_path', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('ended_at', 'text')
      .addColumn('archived_at', 'text')
      .execute();
    await db.schema.createIndex('work_items_status').on('work_items').column('status').execute();
    await db.schema.createIndex('work_items_repo').on('work_items').column('repo').execute();
    await db.schema
      .createIndex('work_items_created')
      .on('work_items')
      .columns(['created_at', 'id'])
      .execute();

    await db.schema
      .createTable('events')
      .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('work_item_id', 'text', (c) => c.notNull().references('work_items.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('by', 'text', (c) => c.notNull())
      .addColumn('node', 'text')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_item_seq').on('events').columns(['work_item_id', 'seq']).execute();
  },
};
