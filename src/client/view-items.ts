import { itemArtifact, itemDocuments } from '../contract/routes/work-items/documents.js';
import type { EventRecord, EventsPage } from '../contract/events.js';
import type { WorkItem } from '../contract/items.js';
import { gateArtifact } from '../contract/routes/work-items/gates.js';
import { readAttachment } from '../contract/routes/work-items/attachments.js';
import { readItemEvents } from '../contract/routes/work-items/events.js';
import { readSessionLog } from '../contract/routes/work-items/sessions.js';
import { ApiError, type JigClient } from './http.js';

/** Statuses an item does not leave by itself: following it can stop there. */
export const ENDED_STATUSES: ReadonlySet<WorkItem['status']> = new Set([
  'completed',
  'cancelled',
  'abandoned',
]);

/** Event kinds after which an item may have ended (the item itself says whether it did). */
export const ENDING_EVENTS: ReadonlySet<string> = new Set([
  'work_item_completed',
  'work_item_manually_completed',
  'work_item_cancelled',
  'work_item_abandoned',
]);

/**
 * Every event of an item after `after`, optionally of one kind only: all pages read and merged into
 * the one page the route would answer were it unbounded (the first page's `next_before`, the last
 * page's `next_after`).
 */
export async function allEventsPage(
  c: JigClient,
  id: string,
  after: number,
  type?: string,
): Promise<EventsPage> {
  const events: EventRecord[] = [];
  let from = after;
  let nextBefore: number | null | undefined;
  for (;;) {
    const page = await c.call(readItemEvents, { params: { id }, query: { after: from, limit: 1000, type } });
    events.push(...page.events);
    nextBefore ??= page.next_before;
    if (page.events.length === 0 || page.next_after === null)
      return { events, next_after: page.next_after, next_before: nextBefore };
    from = page.next_after;
  }
}

/** Every event of an item after `after` (all pages), optionally of one kind only. */
export async function allEvents(
  c: JigClient,
  id: string,
  after: number,
  type?: string,
): Promise<EventRecord[]> {
  return (await allEventsPage(c, id, after, type)).events;
}

/** Where an item's worktree is, as its latest `worktree_prepared` event says; null before it has one. */
export interface Worktree {
  path: string;
  branch: string;
  base_ref: string;
  /** Removed since (an archive or an abandon reclaimed it). */
  reclaimed: boolean;
}

export async function worktreeOf(c: JigClient, id: string): Promise<Worktree | null> {
  const prepared = await lastOf(c, id, 'worktree_prepared');
  if (!prepared) return null;
  const p = prepared.payload;
  const path = typeof p.path === 'string' ? p.path : null;
  if (!path) return null;
  const reclaimed = await lastOf(c, id, 'worktree_reclaimed');
  return {
    path,
    branch: typeof p.branch === 'string' ? p.branch : '',
    base_ref: typeof p.base_ref === 'string' ? p.base_ref : '',
    reclaimed: reclaimed !== null && reclaimed.seq > prepared.seq,
  };
}

async function lastOf(c: JigClient, id: string, type: string): Promise<EventRecord | null> {
  const events = await allEvents(c, id, 0, type);
  return events[events.length - 1] ?? null;
}

/** A session's log from a byte offset (at most 1 MiB an answer). */
export const readLogFrom = (c: JigClient, id: string, session: string, offset: number): Promise<string> =>
  c.call(readSessionLog, { params: { id, session }, query: { offset } });

/** The pending gate's document, or null when no gate waits. */
export async function pendingArtifact(c: JigClient, id: string) {
  try {
    return await c.call(gateArtifact, { params: { id } });
  } catch (err) {
    if (err instanceof ApiError && err.is('not_found')) return null;
    throw err;
  }
}

export const readDoc = (c: JigClient, id: string, kind: 'spec' | 'plan'): Promise<string> =>
  c.call(readAttachment, { params: { id, kind } });

/** The item's documents (attachments and what tasks wrote), with digests. */
export const listDocumentsOf = (c: JigClient, id: string) => c.call(itemDocuments, { params: { id } });

/** A document a task wrote (or an attachment's worktree copy), or null when the item has none of that kind. */
export async function readTaskDocument(c: JigClient, id: string, kind: string) {
  try {
    return await c.call(itemArtifact, { params: { id, kind } });
  } catch (err) {
    if (err instanceof ApiError && err.is('not_found')) return null;
    throw err;
  }
}
