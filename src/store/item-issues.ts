import type { Kysely, Transaction } from 'kysely';
import { IssueClosing, ItemIssue, IssueTracker } from '../contract/item-issues.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Queries of `item_issues` (migration 20): the tracker issues items implement. */

export async function linkIssues(db: Db, workItemId: string, issues: readonly ItemIssue[]): Promise<void> {
  if (issues.length === 0) return;
  await db
    .insertInto('item_issues')
    .values(
      issues.map((i, position) => ({
        work_item_id: workItemId,
        position,
        tracker: i.tracker,
        issue_id: i.id,
        priority: i.priority,
        how: i.how,
        closing: i.closing,
        url: i.url,
      })),
    )
    .execute();
}

const How = ItemIssue.shape.how;

/** A stored row as the contract has it; a row no schema reads (written by a newer Jig) is left out. */
function toIssue(r: {
  tracker: string;
  issue_id: string;
  priority: number | null;
  how: string;
  closing: string;
  url: string | null;
}) {
  const tracker = IssueTracker.safeParse(r.tracker);
  const how = How.safeParse(r.how);
  const closing = IssueClosing.safeParse(r.closing);
  if (!tracker.success || !how.success || !closing.success) return [];
  const issue: ItemIssue = {
    tracker: tracker.data,
    id: r.issue_id,
    priority: r.priority === null ? null : Number(r.priority),
    how: how.data,
    closing: closing.data,
    url: r.url,
  };
  return [issue];
}

/** The issues of an item, in the order they were linked. */
export async function issuesOf(db: Db, workItemId: string): Promise<ItemIssue[]> {
  const rows = await db
    .selectFrom('item_issues')
    .select(['tracker', 'issue_id', 'priority', 'how', 'closing', 'url'])
    .where('work_item_id', '=', workItemId)
    .orderBy('position')
    .execute();
  return rows.flatMap(toIssue);
}

/** The issues of many items at once (a list page), by item. */
export async function issuesOfItems(db: Db, ids: readonly string[]): Promise<Map<string, ItemIssue[]>> {
  const out = new Map<string, ItemIssue[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('item_issues')
    .select(['work_item_id', 'tracker', 'issue_id', 'priority', 'how', 'closing', 'url'])
    .where('work_item_id', 'in', ids)
    .orderBy('position')
    .execute();
  for (const r of rows) out.set(r.work_item_id, [...(out.get(r.work_item_id) ?? []), ...toIssue(r)]);
  return out;
}

/** Of these issue ids in a tracker, the ones some item (any, ever) already implements. */
export async function filedIssues(
  db: Db,
  tracker: IssueTracker,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('item_issues')
    .select('issue_id')
    .where('tracker', '=', tracker)
    .where('issue_id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.issue_id));
}

/** Records what became of an item's issues of a tracker. */
export async function setClosing(
  db: Db,
  workItemId: string,
  tracker: IssueTracker,
  ids: readonly string[],
  closing: IssueClosing,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('item_issues')
    .set({ closing })
    .where('work_item_id', '=', workItemId)
    .where('tracker', '=', tracker)
    .where('issue_id', 'in', [...ids])
    .execute();
}

/** Items that ended (completed, cancelled, abandoned) with issues still `open`: a close to finish. */
export async function endedWithOpenIssues(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('item_issues')
    .innerJoin('work_items', 'work_items.id', 'item_issues.work_item_id')
    .select('item_issues.work_item_id')
    .distinct()
    .where('item_issues.closing', '=', 'open')
    .where('work_items.status', 'in', ['completed', 'cancelled', 'abandoned'])
    .execute();
  return rows.map((r) => r.work_item_id);
}

/**
 * For each issue of `ids`, the items that implement it and can still complete (not cancelled or
 * abandoned): what an issue it blocks comes after.
 */
export async function liveItemsOf(
  db: Db,
  tracker: IssueTracker,
  ids: readonly string[],
): Promise<Map<string, { id: string; status: string }[]>> {
  const out = new Map<string, { id: string; status: string }[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('item_issues as i')
    .innerJoin('work_items as w', 'w.id', 'i.work_item_id')
    .select(['i.issue_id as issue', 'w.id as item', 'w.status as status'])
    .where('i.tracker', '=', tracker)
    .where('i.issue_id', 'in', [...ids])
    .where('w.status', 'not in', ['cancelled', 'abandoned'])
    .orderBy('w.created_at')
    .execute();
  for (const r of rows) out.set(r.issue, [...(out.get(r.issue) ?? []), { id: r.item, status: r.status }]);
  return out;
}
