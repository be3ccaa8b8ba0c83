/*
 * Name lists of the contract kept free of zod, so the CLI's command tree can print and check them
 * without loading the schemas (src/cli/lazy.ts says why); the schemas are built from these.
 */

/** What the board shows of an item (contract/items.ts `DisplayStatus`). */
export const displayStatuses = [
  'paused',
  'blocked',
  'queued',
  'running',
  'waiting',
  'rate_limited',
  'needs_you',
  'done',
  'cancelled',
  'abandoned',
  'archived',
] as const;

/** What `GET /api/search` finds (contract/search.ts `SearchKind`). */
export const SEARCH_KINDS = [
  'item',
  'event',
  'thread',
  'document',
  'attachment',
  'issue',
  'chain',
  'library',
] as const;

/** The documents filed with an item (contract/items.ts `AttachmentKind`). */
export const attachmentKinds = ['spec', 'plan'] as const;
