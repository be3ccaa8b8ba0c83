import { itemStatuses } from '../contract/item-status.js';
import { attachmentKinds, displayStatuses, SEARCH_KINDS } from '../contract/item-names.js';

/*
 * The contract's name lists the command tree prints in its help or checks while parsing, from the
 * contract's zod-free modules (building the tree must not load zod: lazy.ts says why).
 */

export const DISPLAY_STATUSES = displayStatuses;
export const SEARCH_KIND_NAMES = SEARCH_KINDS;
export const ATTACHMENT_KINDS = attachmentKinds;

/** Every name `view list --status` takes: what the board shows, and the stored statuses behind them. */
export const STATUS_NAMES = [...new Set([...DISPLAY_STATUSES, ...itemStatuses])];
