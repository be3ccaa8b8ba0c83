import {
  Background,
  Controls,
  ReactFlow,
  type Edge,
  type Node,
  type NodeTypes,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { ModelNode } from '../../../src/contract/config/chain-model.js';
import { chainEdges, positionOf } from './layout.js';
import { ReadableFit } from './readable-fit.js';

/*
 * A chain's nodes drawn to be looked at and clicked, not rearranged: the item page's running chain
 * and the composer's chain-to-be. (The chain editor drags its nodes and keeps its own flow.)
 */

export type ChainNode<D extends Record<string, unknown>> = Node<D, 'exec' | 'gate'>;

/** The nodes in walk order and the edges between them, each node carrying the graph's own data. */
export function layChain<D extends Record<string, unknown>>(
  nodes: readonly ModelNode[],
  data: (n: ModelNode) => D,
  ariaLabel: (n: ModelNode, d: D) => string,
): { graphNodes: ChainNode<D>[]; edges: Edge[] } {
  const graphNodes = nodes.map((n, i): ChainNode<D> => {
    const d = data(n);
    return { id: n.id, type: n.kind, position: positionOf(i, n.kind), data: d, ariaLabel: ariaLabel(n, d) };
  });
  const edges = chainEdges(
    nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      rejectTo: n.kind === 'gate' ? (n.reject_to ?? null) : null,
    })),
  );
  return { graphNodes, edges };
}

export function ChainFlow<D extends Record<string, unknown>>({
  flow,
  nodeTypes,
  className = '',
  padding = 0.2,
  viewport,
  onSelect,
  onOpen,
}: {
  flow: { graphNodes: ChainNode<D>[]; edges: Edge[] };
  nodeTypes: NodeTypes;
  className?: string;
  padding?: number;
  /** Where the view opens; when not given, fitted to the chain as far as it stays readable (ReadableFit). */
  viewport?: Viewport | undefined;
  onSelect: (id: string) => void;
  onOpen?: (id: string) => void;
}) {
  return (
    <div className={`chain-graph ${className}`} aria-label="Chain graph">
      <ReactFlow
        nodes={flow.graphNodes}
        edges={flow.edges}
        nodeTypes={nodeTypes}
        {...(viewport ? { defaultViewport: viewport } : {})}
        fitViewOptions={{ padding, maxZoom: 1 }}
        nodesDraggable={false}
        nodesConnectable={false}
        minZoom={0.2}
        onNodeClick={(_e, n) => onSelect(n.id)}
        {...(onOpen ? { onNodeDoubleClick: (_e: unknown, n: Node) => onOpen(n.id) } : {})}
      >
        <Background gap={16} size={1} />
        <Controls showInteractive={false} />
        {!viewport && <ReadableFit padding={padding} refit={flow.graphNodes.map((n) => n.id).join(' ')} />}
      </ReactFlow>
    </div>
  );
}
