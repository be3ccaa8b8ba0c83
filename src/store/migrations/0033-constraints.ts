import type { Kysely } from 'kysely';
import { addCheck, addForeignKey, type Check, type ForeignKey } from '../constraint-sql.js';
import type { Migration } from '../migration-type.js';

/*
 * Issue 50: the closed sets Jig writes and the rows that belong to a work item, held by the
 * database (constraint-sql.ts says how on each store). Frozen with the migration: a later release
 * that widens a set drops the check and adds the new one in a migration of its own
 * (test/store-constraints.test.ts fails until it does).
 *
 * Left open on purpose: `events.type` (the vocabulary grows with nearly every feature, and
 * readers take an unknown kind as such), `worker_sessions.kind` (any task kind, including add-ons'),
 * and rows whose parent is pruned while they stay (`item_claims.worker`, `permission_asks.session`).
 */

const ITEM_STATUSES = [
  'paused',
  'blocked',
  'queued',
  'running',
  'stopped',
  'waiting',
  'completed',
  'cancelled',
  'abandoned',
];
const STOP_KINDS = [
  'gate',
  'question',
  'cap',
  'budget',
  'failed',
  'conflict',
  'mr_closed',
  'config',
  'infra',
  'stuck',
  'wait',
  'rate_limit',
  'sandbox_oom_killed',
  'dependency',
];
const ITEM_SOURCES = ['human', 'trigger', 'schedule', 'duplicate', 'agent', 'auto_intake'];
const SESSION_STATUSES = [
  'running',
  'done',
  'done_with_concerns',
  'failed',
  'needs_context',
  'config_error',
  'capped_out',
  'paused',
  'cancelled',
  'unknown',
  'rate_limited',
  'infra_error',
  'budget_exceeded',
  'oom_killed',
  'waiting',
];
const SEARCH_KINDS = ['item', 'event', 'thread', 'document', 'attachment', 'issue', 'chain', 'library'];

export const CHECKS_V33: Check[] = [
  { table: 'work_items', column: 'status', in: ITEM_STATUSES },
  { table: 'work_items', column: 'stop_kind', in: STOP_KINDS },
  { table: 'work_items', column: 'source', in: ITEM_SOURCES },
  { table: 'work_items', column: 'auto_gate', flag: true },
  { table: 'work_items', column: 'budget_usd', min: 0 },
  { table: 'work_items', column: 'spent_usd', min: 0 },
  { table: 'work_items', column: 'spent_tokens', min: 0 },
  { table: 'worker_sessions', column: 'status', in: SESSION_STATUSES },
  { table: 'worker_sessions', column: 'cost_source', in: ['reported', 'estimated', 'per_launch'] },
  { table: 'worker_sessions', column: 'cost_usd', min: 0 },
  { table: 'worker_sessions', column: 'tokens_input', min: 0 },
  { table: 'worker_sessions', column: 'tokens_output', min: 0 },
  { table: 'worker_sessions', column: 'tokens_cache_read', min: 0 },
  { table: 'worker_sessions', column: 'tokens_cache_write', min: 0 },
  { table: 'workers', column: 'role', in: ['serve', 'worker'] },
  { table: 'workers', column: 'takes_work', flag: true },
  { table: 'workers', column: 'leads', flag: true },
  { table: 'item_attachments', column: 'kind', in: ['spec', 'plan'] },
  { table: 'item_issues', column: 'how', in: ['auto_intake', 'implements'] },
  { table: 'item_issues', column: 'closing', in: ['open', 'closed', 'left_open'] },
  { table: 'review_threads', column: 'state', in: ['open', 'resolved'] },
  { table: 'review_threads', column: 'side', in: ['old', 'new'] },
  { table: 'reviews', column: 'outcome', in: ['approve', 'request_changes', 'comment'] },
  { table: 'permission_asks', column: 'state', in: ['pending', 'allowed', 'denied', 'expired'] },
  { table: 'merge_requests', column: 'state', in: ['open', 'closed', 'merged'] },
  { table: 'merge_requests', column: 'draft', flag: true },
  { table: 'search_entries', column: 'kind', in: SEARCH_KINDS },
];

const item = (table: string, column: string): ForeignKey => ({
  table,
  column,
  parent: 'work_items',
  parentColumn: 'id',
});

/** Rows that belong to an item (events and sessions have had their key since migrations 3 and 5). */
export const FOREIGN_KEYS_V33: ForeignKey[] = [
  item('item_attachments', 'work_item_id'),
  item('item_attempts', 'item_id'),
  item('item_claims', 'work_item_id'),
  item('item_drafts', 'work_item_id'),
  item('item_issues', 'work_item_id'),
  item('merge_requests', 'item_id'),
  item('permission_asks', 'item_id'),
  item('review_threads', 'item_id'),
  item('review_viewed', 'item_id'),
  item('reviews', 'item_id'),
  item('search_entries', 'work_item_id'),
  item('trigger_keys', 'work_item_id'),
  item('work_item_dependencies', 'item_id'),
  item('work_item_dependencies', 'dependency_id'),
  item('work_item_task_steers', 'item_id'),
  { table: 'review_comments', column: 'thread_id', parent: 'review_threads', parentColumn: 'id' },
];

export const constraints: Migration = {
  version: 33,
  name: 'constraints',
  async up(db: Kysely<unknown>, ctx) {
    for (const c of CHECKS_V33) await addCheck(db, ctx, c);
    for (const f of FOREIGN_KEYS_V33) await addForeignKey(db, ctx, f);
  },
};
