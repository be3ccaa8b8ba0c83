// @vitest-environment happy-dom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../api.js';
import { anItem } from '../../fixtures.js';
import { boardTest } from '../../test-kit.js';
import { useItemDraft } from './draft-query.js';

/*
 * When the board reads an item's draft: once on the page, again each time the item comes to rest
 * somewhere new, never on a running item's moves (its last node can end it before the read lands,
 * and an ended item's draft is a 409 in the browser's console: a full run's getting-started
 * journey caught one).
 */

const EMPTY = {
  ops: [],
  problems: [],
  checks: { budget: { spent_usd: 0, cap_usd: null }, added: [] },
  nodes: [],
  base_seq: null,
  updated_at: null,
};

const at = (status: Item['status'], current_node: string | null): Item =>
  anItem({ status, current_node, started_at: '2026-12-02T10:00:00.000Z' });

describe('useItemDraft', () => {
  it('reads at rest, not while the item runs from node to node, and not once it has ended', async () => {
    const t = boardTest({ getItemDraft: () => EMPTY });
    let item = at('stopped', 'spec_approval');
    const view = t.hook(() => useItemDraft(item));
    await waitFor(() => expect(view.result.current.data).toEqual(EMPTY));
    const reads = () => t.api.calls.filter((c) => c.route === 'getItemDraft').length;
    expect(reads()).toBe(1);

    // Approved: it runs through three nodes and ends.
    for (const node of ['plan', 'implementation', 'verification']) {
      item = at('running', node);
      view.rerender();
    }
    item = at('completed', 'verification');
    view.rerender();
    // A later rest would read (below): nothing was read for the moves meanwhile.
    expect(reads()).toBe(1);

    // Another item's page, at a gate, then the same item paused at a later node: each rest is read.
    item = { ...at('stopped', 'plan_approval'), id: 'other' };
    view.rerender();
    await waitFor(() => expect(reads()).toBe(2));
    item = { ...at('paused', 'implementation'), id: 'other' };
    view.rerender();
    await waitFor(() => expect(reads()).toBe(3));
    expect(t.api.calls.filter((c) => c.route === 'getItemDraft').map((c) => c.params?.id)).toEqual([
      at('stopped', null).id,
      'other',
      'other',
    ]);
  });
});
