import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** How many items the store holds, by stored status, and how many of them are archived. */
export async function itemCounts(
  db: Kysely<Database>,
): Promise<{ byStatus: Record<string, number>; archived: number }> {
  const rows = await db
    .selectFrom('work_items')
    .select([
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
      // count() of a column counts its non-null values: the archived among this status.
      (eb) => eb.fn.count<number>('archived_at').as('archived'),
    ])
    .groupBy('status')
    .orderBy('status')
    .execute();
  return {
    byStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    archived: rows.reduce((sum, r) => sum + Number(r.archived), 0),
  };
}
