import type { NodeProps } from '@xyflow/react';
import { ChainFlow, layChain, type ChainNode as FlowNode } from '../graph/chain-flow.js';
import { ExecShell, GateShell } from '../graph/node-shells.js';
import { useMemo } from 'react';
import type { ModelNode } from '../../../src/contract/config/chain-model.js';
import { duration, type NodeStatus } from './node-states.js';

/*
 * The item's chain as a graph: exec nodes as boxes, gates as diamonds, in walk order left to
 * right, with each gate's reject arc drawn back under the row (graph/layout.ts). Pan, zoom and fit
 * come with React Flow.
 */

type Data = { node: ModelNode; status: NodeStatus; selected: boolean };
type ChainNode = FlowNode<Data>;

const STATE_LABEL: Record<NodeStatus['state'], string> = {
  pending: 'not run',
  running: 'running',
  waiting: 'waiting for you',
  stopped: 'stopped',
  done: 'done',
  skipped: 'skipped',
};

function Label({ data }: { data: Data }) {
  const { node, status } = data;
  return (
    <>
      <span className="gn-id">{node.id}</span>
      <span className="gn-state">
        {STATE_LABEL[status.state]}
        {status.ms !== null ? ` · ${duration(status.ms)}` : ''}
        {status.runs > 1 ? ` · ×${status.runs}` : ''}
      </span>
    </>
  );
}

function ExecNode({ data }: NodeProps<ChainNode>) {
  return (
    <ExecShell
      className={`gn-${data.status.state}${data.selected ? ' gn-selected' : ''}`}
      title={data.node.description}
    >
      <Label data={data} />
    </ExecShell>
  );
}

function GateNode({ data }: NodeProps<ChainNode>) {
  return (
    <GateShell className={`gn-${data.status.state}${data.selected ? ' gn-selected' : ''}`}>
      <Label data={data} />
    </GateShell>
  );
}

const nodeTypes = { exec: ExecNode, gate: GateNode };

export interface ChainGraphProps {
  nodes: readonly ModelNode[];
  states: Map<string, NodeStatus>;
  selected: string | null;
  onSelect: (id: string) => void;
  onOpen: (id: string) => void;
}

export default function ChainGraph({ nodes, states, selected, onSelect, onOpen }: ChainGraphProps) {
  const flow = useMemo(() => {
    const fallback: NodeStatus = { state: 'pending', ms: null, runs: 0 };
    return layChain(
      nodes,
      (n): Data => ({ node: n, status: states.get(n.id) ?? fallback, selected: n.id === selected }),
      (n, d) => `${n.kind === 'gate' ? 'gate' : 'node'} ${n.id}: ${STATE_LABEL[d.status.state]}`,
    );
  }, [nodes, states, selected]);
  return <ChainFlow flow={flow} nodeTypes={nodeTypes} onSelect={onSelect} onOpen={onOpen} />;
}
