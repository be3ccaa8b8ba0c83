import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  MergeRequestState,
  type ForgeMergeRequest,
  type ItemMergeRequest,
} from '../contract/merge-requests.js';
import type { Database } from './schema.js';

/** Queries of `merge_requests` (migration 17). */

const Labels = z.array(z.string());

function mrOf(r: Database['merge_requests']): ItemMergeRequest {
  return {
    repo: r.repo,
    number: r.number,
    url: r.url,
    state: MergeRequestState.parse(r.state),
    draft: r.draft === 1,
    head: r.head,
    base: r.base,
    sha: r.sha,
    merge_sha: r.merge_sha,
    title: r.title,
    // Written from a validated list by saveMergeRequest; read back through the same schema.
    labels: Labels.parse(JSON.parse(r.labels)),
    updated_at: r.updated_at,
  };
}

/** Records the forge's answer for the item's merge request in this repository; answers the one before. */
export async function saveMergeRequest(
  db: Kysely<Database>,
  item: string,
  repo: string,
  mr: ForgeMergeRequest,
  now: string,
): Promise<ItemMergeRequest | null> {
  const before = await getMergeRequest(db, item, repo);
  const row = {
    number: mr.number,
    url: mr.url,
    state: mr.state,
    draft: mr.draft ? 1 : 0,
    head: mr.head,
    base: mr.base,
    sha: mr.sha,
    merge_sha: mr.merge_sha,
    title: mr.title,
    labels: JSON.stringify(mr.labels),
    updated_at: now,
  };
  await db
    .insertInto('merge_requests')
    .values({ item_id: item, repo, ...row })
    .onConflict((oc) => oc.columns(['item_id', 'repo']).doUpdateSet(row))
    .execute();
  return before;
}

export async function getMergeRequest(
  db: Kysely<Database>,
  item: string,
  repo: string,
): Promise<ItemMergeRequest | null> {
  const r = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where('item_id', '=', item)
    .where('repo', '=', repo)
    .executeTakeFirst();
  return r ? mrOf(r) : null;
}

export async function listMergeRequests(db: Kysely<Database>, item: string): Promise<ItemMergeRequest[]> {
  const rows = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where('item_id', '=', item)
    .orderBy('repo')
    .execute();
  return rows.map(mrOf);
}

/** Merge requests recorded open whose item has not ended and is not waiting (a wait polls its own). */
export async function watchedMergeRequests(
  db: Kysely<Database>,
): Promise<{ item_id: string; repo: string; number: number }[]> {
  return db
    .selectFrom('merge_requests')
    .innerJoin('work_items', 'work_items.id', 'merge_requests.item_id')
    .select(['merge_requests.item_id', 'merge_requests.repo', 'merge_requests.number'])
    .where('merge_requests.state', '=', 'open')
    .where('work_items.status', 'in', ['running', 'queued', 'stopped', 'paused', 'blocked'])
    .execute();
}
