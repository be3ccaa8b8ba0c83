import { describe, expect, it } from 'vitest';
import { Crossings } from './crossings.js';
import type { OverCap } from './item-spend.js';

/*
 * One crossing, one reason: sessions of a scope that were already under way when its cap was
 * crossed end with the first crossing's reason, whatever figure their own check found.
 */

const T0 = Date.parse('2026-12-02T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const node = (reason: string, path = 'build'): OverCap => ({ reason, scope: 'node', path });

describe('Crossings', () => {
  it('gives a session started before a crossing that crossing’s reason, and one started after its own', () => {
    let now = T0 + 5_000;
    const c = new Crossings(() => now);
    const quick = { work_item_id: 'w1', started_at: at(1_000) };
    const slow = { work_item_id: 'w1', started_at: at(1_200) };
    expect(c.reasonFor(quick, node('0.0006 USD used'))).toBe('0.0006 USD used');
    // Slow's own check a moment later knew more spend; it ends on the same crossing.
    now += 300;
    expect(c.reasonFor(slow, node('0.000915 USD used'))).toBe('0.0006 USD used');
    // A retry after the budget was raised starts later: a crossing of its own.
    now += 60_000;
    const retry = { work_item_id: 'w1', started_at: at(30_000) };
    expect(c.reasonFor(retry, node('0.002 USD used'))).toBe('0.002 USD used');
    // Another item, or another scope of the same item, is another crossing.
    expect(c.reasonFor({ work_item_id: 'w2', started_at: at(0) }, node('w2 over'))).toBe('w2 over');
    expect(c.reasonFor(slow, node('review over', 'review'))).toBe('review over');
    expect(c.reasonFor(slow, { reason: 'item over', scope: 'work_item', path: 'w1' })).toBe('item over');
  });

  it('forgets a crossing after ten minutes', () => {
    let now = T0;
    const c = new Crossings(() => now);
    const s = { work_item_id: 'w1', started_at: at(-1_000) };
    expect(c.reasonFor(s, node('first'))).toBe('first');
    now += 10 * 60_000 + 1;
    // Another crossing prunes the old one as it is recorded.
    expect(c.reasonFor({ work_item_id: 'w9', started_at: at(0) }, node('other'))).toBe('other');
    expect(c.reasonFor(s, node('second'))).toBe('second');
  });
});
