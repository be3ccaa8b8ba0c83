import type { Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Agent sessions: which CLI and model ran, the CLI's own session id (the resume key), live token
 * counts and dollars (reported or estimated), and what the stream said at the end. Items keep their
 * token total beside `spent_usd`.
 */
export const agentSessions: Migration = {
  version: 7,
  name: 'agent_sessions',
  async up(db: Kysely<unknown>) {
    const s = () => db.schema.alterTable('worker_sessions');
    await s().addColumn('harness', 'text').execute();
    await s().addColumn('provider', 'text').execute();
    await s().addColumn('model', 'text').execute();
    await s().addColumn('cli_session_id', 'text').execute();
    for (const c of ['tokens_input', 'tokens_output', 'tokens_cache_read', 'tokens_cache_write']) {
      await s()
        .addColumn(c, 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    }
    await s().addColumn('cost_usd', 'real').execute();
    await s().addColumn('cost_source', 'text').execute();
    await s().addColumn('readout', 'text').execute();
    await s().addColumn('note', 'text').execute();
    await db.schema
      .alterTable('work_items')
      .addColumn('spent_tokens', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
