import { sql, type Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * Issue 40. `run_epoch`: bumped each time an item is set running, so a walk that was overtaken (a
 * pause and a resume while its node still ran) can tell it is no longer the item's walk and writes
 * nothing. `gate_request`: the seq of the `gate_requested` event the item waits on, so a person's
 * decision names the request it answers and can never apply to a later one.
 */
export const runEpoch: Migration = {
  version: 28,
  name: 'run-epoch',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('work_items')
      .addColumn('run_epoch', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('work_items').addColumn('gate_request', 'integer').execute();
    // An item already waiting at a gate waits on its latest request.
    await sql`UPDATE work_items SET gate_request = (
        SELECT MAX(e.seq) FROM events e
        WHERE e.work_item_id = work_items.id AND e.type = 'gate_requested' AND e.node = work_items.current_node
      ) WHERE status = 'stopped' AND stop_kind IN ('gate', 'cap')`.execute(db);
  },
};
