import { getViewportForBounds, MarkerType, type Edge, type Viewport } from '@xyflow/react';
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

/**
 * The smallest zoom the graph opens at: 12 px labels at 0.75 are 9 px, the least that reads. A long
 * chain fitted whole went far below it (the seeded default chain, 8 nodes, opened near 0.3).
 */
export const READABLE_ZOOM = 0.75;

/**
 * Where the graph opens in a pane of `width` × `height`: the whole chain fitted (never above 1), or,
 * when that would be smaller than READABLE_ZOOM, the chain's start at that zoom, its row in the
 * pane's middle, and the rest a pan away.
 */
export function openingView(
  bounds: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
  padding: number,
): Viewport {
  const fitted = getViewportForBounds(bounds, width, height, 0.05, 1, padding);
  if (fitted.zoom >= READABLE_ZOOM) return fitted;
  const zoom = READABLE_ZOOM;
  return { x: 16 - bounds.x * zoom, y: height / 2 - (bounds.y + bounds.height / 2) * zoom, zoom };
}
