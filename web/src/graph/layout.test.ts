import { describe, expect, it } from 'vitest';
import { chainEdges, openingView, positionOf, READABLE_ZOOM } from './layout.js';
import { GAP } from './node-shells.js';

describe('chain graph layout', () => {
  it('stands the nodes in walk order, a gate centred on the row', () => {
    expect(positionOf(0, 'exec')).toEqual({ x: 0, y: 0 });
    expect(positionOf(2, 'gate').x).toBe(2 * GAP);
    expect(positionOf(2, 'gate').y).toBeLessThan(0);
  });

  it('joins each node to the next and draws a reject arc back to a node the chain has', () => {
    const edges = chainEdges([
      { id: 'build', kind: 'exec', rejectTo: null },
      { id: 'review', kind: 'gate', rejectTo: 'build' },
      { id: 'ship', kind: 'gate', rejectTo: 'gone' },
    ]);
    expect(edges.map((e) => e.id)).toEqual(['build->review', 'review->ship', 'review~>build']);
    expect(edges[2]).toMatchObject({ sourceHandle: 'reject', targetHandle: 'back', className: 'reject-arc' });
  });

  it('opens a short chain fitted whole, a long one readable at its start', () => {
    // Three nodes in a 700 × 320 pane: fitted, at most 1.
    const short = openingView({ x: 0, y: -10, width: 2 * GAP + 150, height: 80 }, 700, 320, 0.2);
    expect(short.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(short.zoom).toBeLessThanOrEqual(1);
    // The seeded default chain, eight nodes: fitted whole it would be about 0.37 in this pane.
    const long = openingView({ x: 0, y: -10, width: 7 * GAP + 150, height: 80 }, 700, 320, 0.2);
    expect(long.zoom).toBe(READABLE_ZOOM);
    expect(long.x).toBe(16);
    // The row's middle is the pane's.
    expect(long.y + (-10 + 40) * READABLE_ZOOM).toBe(160);
  });
});
