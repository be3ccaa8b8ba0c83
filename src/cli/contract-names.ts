import type { AttachmentKind, displayStatuses } from '../contract/items.js';
import type { SEARCH_KINDS } from '../contract/search.js';
import { itemStatuses } from '../contract/item-status.js';

/*
 * The contract's name lists that the command tree prints in its help or checks while parsing,
 * copied here because their modules load zod, which building the tree must not (lazy.ts says why).
 * The types below fail the type check when a copy and the contract differ; contract-names.test.ts
 * compares them at run time too.
 */

/** contract/items.ts `displayStatuses`: what the board shows. */
export const DISPLAY_STATUSES = [
  'paused',
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

/** contract/search.ts `SEARCH_KINDS`: what `view search --kind` takes. */
export const SEARCH_KIND_NAMES = [
  'item',
  'event',
  'thread',
  'document',
  'attachment',
  'issue',
  'chain',
  'library',
] as const;

/** contract/items.ts `AttachmentKind`'s options: the documents filed with an item. */
export const ATTACHMENT_KINDS = ['spec', 'plan'] as const;

/** Every name `view list --status` takes: what the board shows, and the stored statuses behind them. */
export const STATUS_NAMES = [...new Set([...DISPLAY_STATUSES, ...itemStatuses])];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Compiles only while each copy is its contract list (order included where the contract has one). */
export type ContractNamesAgree = [
  Holds<Same<typeof DISPLAY_STATUSES, typeof displayStatuses>>,
  Holds<Same<typeof SEARCH_KIND_NAMES, typeof SEARCH_KINDS>>,
  Holds<Same<(typeof ATTACHMENT_KINDS)[number], AttachmentKind>>,
];
