import { sql } from 'kysely';
import type { Migration } from './migration-type.js';
import { authSessions } from './migrations/0002-auth-sessions.js';
import { itemsAndEvents } from './migrations/0003-items-events.js';
import { scheduleFirings } from './migrations/0004-schedule-firings.js';
import { engineState } from './migrations/0005-engine.js';
import { listIndex } from './migrations/0006-list-index.js';
import { agentSessions } from './migrations/0007-agent-sessions.js';
import { triggerKeys } from './migrations/0008-trigger-keys.js';
import { drafts } from './migrations/0009-drafts.js';
import { intakeChecks } from './migrations/0010-intake-checks.js';
import { itemDrafts } from './migrations/0011-item-drafts.js';
import { skipNodes } from './migrations/0012-skip-nodes.js';
import { autoGate } from './migrations/0013-auto-gate.js';
import { review } from './migrations/0014-review.js';
import { threads } from './migrations/0015-threads.js';
import { permissionAsks } from './migrations/0016-permission-asks.js';
import { mergeRequests } from './migrations/0017-merge-requests.js';
import { mergeSha } from './migrations/0018-merge-sha.js';
import { workspaceItems } from './migrations/0019-workspace-items.js';
import { itemIssues } from './migrations/0020-item-issues.js';
import { issueUrls } from './migrations/0021-issue-urls.js';
import { searchIndex } from './migrations/0022-search-index.js';
import { rangeIndexes } from './migrations/0023-range-indexes.js';
import { eventSeq } from './migrations/0024-event-seq.js';
import { workers } from './migrations/0025-workers.js';
import { leader } from './migrations/0026-leader.js';
import { attachmentTexts } from './migrations/0027-attachment-texts.js';
import { runEpoch } from './migrations/0028-run-epoch.js';
import { searchCursor } from './migrations/0029-search-cursor.js';
import { dependencies } from './migrations/0030-dependencies.js';
import { taskSteers } from './migrations/0031-task-steers.js';
import { typedColumns } from './migrations/0032-typed-columns.js';
import { constraints } from './migrations/0033-constraints.js';

/**
 * Numbered, forward-only migrations. Never edit one that has shipped: add the next number.
 * SQL stays portable (no SQLite-only types) so the PostgreSQL dialect can run the same list.
 */
export type { Migration } from './migration-type.js';

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'meta',
    async up(db) {
      await db.schema
        .createTable('jig_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO jig_meta (key, value) VALUES ('created_at', ${new Date().toISOString()})`.execute(
        db,
      );
    },
  },
  authSessions,
  itemsAndEvents,
  scheduleFirings,
  engineState,
  listIndex,
  agentSessions,
  triggerKeys,
  drafts,
  intakeChecks,
  itemDrafts,
  skipNodes,
  autoGate,
  review,
  threads,
  permissionAsks,
  mergeRequests,
  mergeSha,
  workspaceItems,
  itemIssues,
  issueUrls,
  searchIndex,
  rangeIndexes,
  eventSeq,
  workers,
  leader,
  attachmentTexts,
  runEpoch,
  searchCursor,
  dependencies,
  taskSteers,
  typedColumns,
  constraints,
];
