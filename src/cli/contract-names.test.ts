import { describe, expect, it } from 'vitest';
import { itemStatuses } from '../contract/item-status.js';
import { AttachmentKind, displayStatuses } from '../contract/items.js';
import { SearchKind } from '../contract/search.js';
import { ATTACHMENT_KINDS, DISPLAY_STATUSES, SEARCH_KIND_NAMES, STATUS_NAMES } from './contract-names.js';

describe("the contract's name lists the CLI prints", () => {
  it('are the lists the schemas take, in their order', () => {
    expect([...DISPLAY_STATUSES]).toEqual([...displayStatuses]);
    expect([...SEARCH_KIND_NAMES]).toEqual(SearchKind.options);
    expect([...ATTACHMENT_KINDS]).toEqual(AttachmentKind.options);
  });

  it('give view list --status the board names first, then the stored statuses not among them', () => {
    expect(STATUS_NAMES).toEqual([...new Set([...displayStatuses, ...itemStatuses])]);
  });
});
