import type { Kysely } from 'kysely';
import type { SessionFacts } from '../core/analytics/aggregate.js';
import type { Database } from './schema.js';

/** The sessions started in [from, to), with their item's chain and repository. */
export async function sessionsBetween(
  db: Kysely<Database>,
  from: string,
  to: string,
): Promise<SessionFacts[]> {
  return db
    .selectFrom('worker_sessions as s')
    .innerJoin('work_items as w', 'w.id', 's.work_item_id')
    .select([
      's.work_item_id',
      's.node',
      's.kind',
      's.harness',
      's.model',
      'w.chain',
      'w.repo',
      's.started_at',
      's.exited_at',
      's.cost_usd',
      's.cost_source',
      's.tokens_input',
      's.tokens_output',
      's.tokens_cache_read',
      's.tokens_cache_write',
    ])
    .where('s.started_at', '>=', from)
    .where('s.started_at', '<', to)
    .execute();
}

/** How many node starts, completions and stops each node had in [from, to). */
export async function nodeEventCounts(
  db: Kysely<Database>,
  from: string,
  to: string,
): Promise<{ type: string; node: string; n: number }[]> {
  const rows = await db
    .selectFrom('events')
    .select(['type', 'node', (eb) => eb.fn.countAll<number>().as('n')])
    .where('type', 'in', ['node_started', 'node_completed', 'work_item_needs_human'])
    .where('node', 'is not', null)
    .where('at', '>=', from)
    .where('at', '<', to)
    .groupBy(['type', 'node'])
    .execute();
  return rows.flatMap((r) => (r.node === null ? [] : [{ type: r.type, node: r.node, n: Number(r.n) }]));
}
