import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';
import { CleanupAnswer, CleanupQuery, StorageAnswer } from '../storage.js';

export const getStorage = defineRoute({
  operationId: 'getStorage',
  method: 'GET',
  path: '/api/storage',
  summary: 'What Jig’s home takes on disk, per part and per item, and what a clean-up would reclaim',
  description:
    'Apparent sizes (links not followed) of the database, worktrees, logs, results and ' +
    'attachments; the items holding disk, largest first; and `reclaimable`: the ended, unarchived ' +
    'items that still have a worktree.',
  tags: ['settings'],
  responses: { 200: StorageAnswer },
});

export const cleanupStorage = defineRoute({
  operationId: 'cleanupStorage',
  method: 'POST',
  path: '/api/storage/cleanup',
  summary: 'Reclaim the worktrees of ended items (dry_run=1: only list them)',
  description:
    'Completed and cancelled items not archived that still have a worktree (ended at least ' +
    '`older_than_days` ago) have it removed as an archive would — the branch kept, ' +
    '`worktree_reclaimed` with `cleanup: true` — and are listed with the bytes each took. With ' +
    '`dry_run=1` nothing is removed and the same list is answered.',
  tags: ['settings'],
  query: CleanupQuery,
  responses: { 200: CleanupAnswer, 422: ErrorBodySchema },
});
