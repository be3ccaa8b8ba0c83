import type { NodeProps } from '@xyflow/react';
import { useMemo, useState } from 'react';
import type { ModelNode } from '../../../src/contract/config/chain-model.js';
import { ChainFlow, layChain, type ChainNode } from '../graph/chain-flow.js';
import { ExecShell, GateShell } from '../graph/node-shells.js';
import { noSkipReason, type NodePlan } from './chain-nodes.js';
import type { NodeChoice } from './draft.js';

/*
 * The chain a new item would run, drawn as the item page draws a running one (graph/), each node
 * saying whether it runs and carrying its own Skip toggle, so what the walk passes is picked where
 * it shows. A node the chain makes unskippable has the toggle off, its title saying why.
 */

type Data = {
  node: ModelNode;
  plan: NodePlan;
  choice: NodeChoice;
  selected: boolean;
  onSkip: (id: string, skip: boolean) => void;
};
type PlanNode = ChainNode<Data>;

const stateText = (d: Data): string => {
  const p = d.plan;
  const model = d.choice.model?.trim();
  return `${p.state === 'runs' ? 'runs' : 'skipped'}${model ? ` · ${model}` : ''}`;
};

function Label({ data }: { data: Data }) {
  const { node, plan } = data;
  const why = noSkipReason(node);
  const filing = plan.state === 'skipped' && plan.by === 'filing' ? plan.reason : null;
  return (
    <>
      <span className="gn-id">{node.id}</span>
      <span className="gn-state" title={filing ?? undefined}>
        {stateText(data)}
      </span>
      <label className="gn-skip nodrag" title={why ? `Cannot skip ${node.id}: ${why}` : undefined}>
        <input
          type="checkbox"
          aria-label={`Skip ${node.id}`}
          checked={data.choice.skip === true}
          disabled={why !== null}
          onChange={(e) => data.onSkip(node.id, e.target.checked)}
          onClick={(e) => e.stopPropagation()}
        />
        {why ? 'always runs' : 'skip'}
      </label>
    </>
  );
}

const classOf = (d: Data) =>
  `${d.plan.state === 'skipped' ? 'gn-skipped' : 'gn-pending'}${d.selected ? ' gn-selected' : ''}`;

function ExecNode({ data }: NodeProps<PlanNode>) {
  return (
    <ExecShell className={classOf(data)} title={data.node.description}>
      <Label data={data} />
    </ExecShell>
  );
}

function GateNode({ data }: NodeProps<PlanNode>) {
  return (
    <GateShell className={classOf(data)}>
      <Label data={data} />
    </GateShell>
  );
}

const nodeTypes = { exec: ExecNode, gate: GateNode };

/**
 * On a phone a whole chain fitted in the width is too small to read or tick: it opens at its first
 * nodes, readable, and pans to the rest.
 */
const PHONE_VIEW = { x: 16, y: 80, zoom: 0.7 };
const isPhone = () => window.matchMedia('(max-width: 767px)').matches;

export interface PlanGraphProps {
  nodes: readonly ModelNode[];
  plans: ReadonlyMap<string, NodePlan>;
  choices: Readonly<Record<string, NodeChoice>>;
  selected: string | null;
  onSelect: (id: string) => void;
  onSkip: (id: string, skip: boolean) => void;
}

export function PlanGraph({ nodes, plans, choices, selected, onSelect, onSkip }: PlanGraphProps) {
  const flow = useMemo(
    () =>
      layChain(
        nodes,
        (n): Data => ({
          node: n,
          plan: plans.get(n.id) ?? { state: 'runs' },
          choice: choices[n.id] ?? {},
          selected: n.id === selected,
          onSkip,
        }),
        (n, d) => `${n.kind === 'gate' ? 'gate' : 'node'} ${n.id}: ${d.plan.state}`,
      ),
    [nodes, plans, choices, selected, onSkip],
  );
  const [phone] = useState(isPhone);
  return (
    <ChainFlow
      flow={flow}
      nodeTypes={nodeTypes}
      className="plan-graph"
      padding={0.15}
      viewport={phone ? PHONE_VIEW : undefined}
      onSelect={onSelect}
    />
  );
}
