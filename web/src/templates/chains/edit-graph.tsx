import { Background, Controls, ReactFlow, type Node, type NodeProps, applyNodeChanges } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { chainEdges, positionOf } from '../../graph/layout.js';
import { ExecShell, GateShell } from '../../graph/node-shells.js';
import { ReadableFit } from '../../graph/readable-fit.js';
import { useEffect, useMemo, useState } from 'react';
import type { NodePart } from './shape.js';

/*
 * The chain being edited, drawn as the item page draws a running one (web/src/item/chain-graph.tsx):
 * exec nodes as boxes, gates as diamonds, left to right in walk order, a gate's reject arc under
 * the row. Instead of run states each node shows its base and its problems.
 */

type Data = { node: NodePart; problems: number; selected: boolean; rejectTo: string | null };
type EditNode = Node<Data, 'exec' | 'gate'>;

function Label({ data }: { data: Data }) {
  const { node, problems } = data;
  return (
    <>
      <span className="gn-id">{node.id}</span>
      <span className="gn-state">
        {node.extends
          ? `extends ${node.extends}`
          : node.kind === 'gate'
            ? 'gate'
            : `${node.steps.length} step${node.steps.length === 1 ? '' : 's'}`}
      </span>
      {problems > 0 && (
        <span className="chip chip-warn ce-badge">
          {problems} problem{problems === 1 ? '' : 's'}
        </span>
      )}
    </>
  );
}

const cls = (d: Data) => `${d.problems ? 'gn-stopped' : ''}${d.selected ? ' gn-selected' : ''}`;

function ExecNode({ data }: NodeProps<EditNode>) {
  return (
    <ExecShell className={cls(data)}>
      <Label data={data} />
    </ExecShell>
  );
}

function GateNode({ data }: NodeProps<EditNode>) {
  return (
    <GateShell className={cls(data)}>
      <Label data={data} />
    </GateShell>
  );
}

const nodeTypes = { exec: ExecNode, gate: GateNode };

export interface EditGraphProps {
  nodes: readonly NodePart[];
  problems: Map<string, number>;
  selected: string | null;
  onSelect: (id: string) => void;
  /** A node dropped among the others: its new position in the walk. */
  onMove: (id: string, to: number) => void;
}

/** Where a node dropped at `x` lands: after every other node whose box starts left of it. */
export function dropIndex(xs: readonly { id: string; x: number }[], id: string, x: number): number {
  return xs.filter((n) => n.id !== id && n.x < x).length;
}

export default function EditGraph({ nodes, problems, selected, onSelect, onMove }: EditGraphProps) {
  const flow = useMemo(() => {
    const graphNodes: EditNode[] = nodes.map((n, i) => {
      const rejectTo = n.fields.reject_to?.value;
      const count = problems.get(n.id) ?? 0;
      return {
        id: n.id,
        type: n.kind,
        position: positionOf(i, n.kind),
        data: {
          node: n,
          problems: count,
          selected: n.id === selected,
          rejectTo: typeof rejectTo === 'string' ? rejectTo : null,
        },
        ariaLabel: `${n.kind === 'gate' ? 'gate' : 'node'} ${n.id}${count ? `: ${count} problem${count === 1 ? '' : 's'}` : ''}`,
      };
    });
    const edges = chainEdges(
      graphNodes.map((g) => ({ id: g.id, kind: g.data.node.kind, rejectTo: g.data.rejectTo })),
    );
    return { graphNodes, edges };
  }, [nodes, problems, selected]);
  // Dragging moves a node on screen only; the drop sends the move and the answer redraws the chain.
  const [shown, setShown] = useState(flow.graphNodes);
  useEffect(() => setShown(flow.graphNodes), [flow.graphNodes]);
  return (
    <div className="chain-graph ce-graph" aria-label="Chain graph">
      <ReactFlow
        nodes={shown}
        edges={flow.edges}
        nodeTypes={nodeTypes}
        fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
        nodesDraggable
        onNodesChange={(changes) => setShown((ns) => applyNodeChanges(changes, ns))}
        onNodeDragStop={(_e, n) => {
          const to = dropIndex(
            flow.graphNodes.map((g) => ({ id: g.id, x: g.position.x })),
            n.id,
            n.position.x,
          );
          if (to === nodes.findIndex((p) => p.id === n.id)) setShown(flow.graphNodes);
          else onMove(n.id, to);
        }}
        nodesConnectable={false}
        minZoom={0.2}
        onNodeClick={(_e, n) => onSelect(n.id)}
      >
        <Background gap={16} size={1} />
        <Controls showInteractive={false} />
        <ReadableFit padding={0.2} refit={nodes.map((n) => n.id).join(' ')} />
      </ReactFlow>
    </div>
  );
}
