import type { Kysely } from 'kysely';
import type { ReviewAttempt } from '../contract/review.js';
import type { Database } from './schema.js';

/** Queries of `item_attempts` and `review_viewed` (migration 14). */

export async function listAttempts(db: Kysely<Database>, itemId: string): Promise<ReviewAttempt[]> {
  const rows = await db
    .selectFrom('item_attempts')
    .select(['n', 'node', 'run', 'sha', 'at'])
    .where('item_id', '=', itemId)
    .orderBy('n')
    .execute();
  return rows.map((r) => ({ n: Number(r.n), node: r.node, run: Number(r.run), sha: r.sha, at: r.at }));
}

/** Records the next attempt of `node` (numbered per item, and per node as its run). */
export async function addAttempt(
  db: Kysely<Database>,
  itemId: string,
  node: string,
  sha: string,
  at: string,
): Promise<ReviewAttempt> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('item_attempts')
      .select(['n', 'node'])
      .where('item_id', '=', itemId)
      .execute();
    const n = rows.reduce((max, r) => Math.max(max, Number(r.n)), 0) + 1;
    const run = rows.filter((r) => r.node === node).length + 1;
    await trx.insertInto('item_attempts').values({ item_id: itemId, n, node, run, sha, at }).execute();
    return { n, node, run, sha, at };
  });
}

export async function viewedMarks(
  db: Kysely<Database>,
  itemId: string,
  person: string,
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('review_viewed')
    .select(['path', 'blob'])
    .where('item_id', '=', itemId)
    .where('person', '=', person)
    .execute();
  return new Map(rows.map((r) => [r.path, r.blob]));
}

export async function setViewed(
  db: Kysely<Database>,
  mark: { item_id: string; person: string; path: string; blob: string; at: string },
): Promise<void> {
  await db
    .insertInto('review_viewed')
    .values(mark)
    .onConflict((oc) =>
      oc.columns(['item_id', 'person', 'path']).doUpdateSet({ blob: mark.blob, at: mark.at }),
    )
    .execute();
}

export async function clearViewed(
  db: Kysely<Database>,
  itemId: string,
  person: string,
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  await db
    .deleteFrom('review_viewed')
    .where('item_id', '=', itemId)
    .where('person', '=', person)
    .where('path', 'in', paths)
    .execute();
}
