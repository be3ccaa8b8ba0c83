import { MarkerType, type Edge } from '@xyflow/react';
import { DIAMOND_MID, GAP } from './node-shells.js';

/*
 * Where a chain's nodes stand and which edges join them, for both chain graphs (the item page's
 * running chain, the chain editor's draft): a chain is a line, so its layout is the walk order
 * itself, left to right, and needs no layout engine. Each gate's reject arc runs back under the row.
 */

/** A node as the layout needs it: its id, its shape, and where a gate's rejection goes. */
export interface LaidNode {
  id: string;
  kind: 'exec' | 'gate';
  rejectTo: string | null;
}

/** Where the node at walk position `i` stands: a gate's diamond is centred on the boxes' row. */
export const positionOf = (i: number, kind: LaidNode['kind']) => ({
  x: i * GAP,
  y: kind === 'gate' ? 27 - DIAMOND_MID : 0,
});

/** An arrow from each node to the next, and each gate's reject arc back to a node the chain has. */
export function chainEdges(nodes: readonly LaidNode[]): Edge[] {
  const edges: Edge[] = nodes.slice(1).map((n, i) => ({
    id: `${nodes[i]!.id}->${n.id}`,
    source: nodes[i]!.id,
    target: n.id,
    markerEnd: { type: MarkerType.ArrowClosed },
  }));
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    const to = n.rejectTo;
    if (n.kind !== 'gate' || !to || !ids.has(to)) continue;
    edges.push({
      id: `${n.id}~>${to}`,
      source: n.id,
      sourceHandle: 'reject',
      target: to,
      targetHandle: 'back',
      type: 'smoothstep',
      className: 'reject-arc',
      label: 'reject',
      markerEnd: { type: MarkerType.ArrowClosed },
    });
  }
  return edges;
}
