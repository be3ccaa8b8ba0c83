import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ReviewOutcome, ThreadClaim, ThreadLabel, ThreadSide, type Review } from '../contract/threads.js';
import type { Database } from './schema.js';

/** Queries of `review_threads`, `review_comments` and `reviews` (migration 15). */

export interface ThreadRow {
  id: string;
  item_id: string;
  file_path: string | null;
  start_line: number | null;
  end_line: number | null;
  side: z.infer<typeof ThreadSide> | null;
  label: ThreadLabel | null;
  suggestion: string | null;
  state: 'open' | 'resolved';
  anchor_sha: string | null;
  claim: ThreadClaim | null;
  created_at: string;
  updated_at: string;
}

export interface CommentRow {
  id: string;
  thread_id: string;
  by: 'human' | 'agent';
  body: string;
  claim: ThreadClaim | null;
  created_at: string;
}

// Stored text read back through the same closed sets it was written from: no casts.
const State = z.enum(['open', 'resolved']);
const By = z.enum(['human', 'agent']);
const opt = <T extends z.ZodType>(t: T) => t.nullable();

function threadOf(r: Database['review_threads']): ThreadRow {
  return {
    ...r,
    start_line: r.start_line === null ? null : Number(r.start_line),
    end_line: r.end_line === null ? null : Number(r.end_line),
    side: opt(ThreadSide).parse(r.side),
    label: opt(ThreadLabel).parse(r.label),
    state: State.parse(r.state),
    claim: opt(ThreadClaim).parse(r.claim),
  };
}

export async function listThreads(db: Kysely<Database>, itemId: string): Promise<ThreadRow[]> {
  const rows = await db
    .selectFrom('review_threads')
    .selectAll()
    .where('item_id', '=', itemId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(threadOf);
}

export async function getThread(db: Kysely<Database>, id: string): Promise<ThreadRow | null> {
  const r = await db.selectFrom('review_threads').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? threadOf(r) : null;
}

export async function commentsOf(db: Kysely<Database>, threadIds: string[]): Promise<CommentRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await db
    .selectFrom('review_comments')
    .select(['id', 'thread_id', 'by', 'body', 'claim', 'created_at'])
    .where('thread_id', 'in', threadIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, by: By.parse(r.by), claim: opt(ThreadClaim).parse(r.claim) }));
}

export async function insertThread(db: Kysely<Database>, t: ThreadRow): Promise<void> {
  await db.insertInto('review_threads').values(t).execute();
}

export async function insertComment(
  db: Kysely<Database>,
  c: CommentRow & { person: string | null },
): Promise<void> {
  await db.insertInto('review_comments').values(c).execute();
}

export async function updateThread(
  db: Kysely<Database>,
  id: string,
  change: Partial<Pick<ThreadRow, 'state' | 'claim' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('review_threads').set(change).where('id', '=', id).execute();
}

export async function insertReview(
  db: Kysely<Database>,
  r: Review & { item_id: string; person: string },
): Promise<void> {
  await db.insertInto('reviews').values(r).execute();
}

export async function listReviews(db: Kysely<Database>, itemId: string, person?: string): Promise<Review[]> {
  let q = db.selectFrom('reviews').selectAll().where('item_id', '=', itemId);
  if (person !== undefined) q = q.where('person', '=', person);
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    outcome: ReviewOutcome.parse(r.outcome),
    summary: r.summary,
    gate: r.gate,
    node: r.node,
    round: r.round === null ? null : Number(r.round),
    sha: r.sha,
    created_at: r.created_at,
  }));
}
