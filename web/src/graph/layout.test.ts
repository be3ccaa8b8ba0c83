import { describe, expect, it } from 'vitest';
import { chainEdges, positionOf } from './layout.js';
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
});
