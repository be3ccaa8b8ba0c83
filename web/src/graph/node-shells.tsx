import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';

/*
 * The boxes and diamonds of a chain graph, with the handles edges meet: the item page's running
 * chain (item/chain-graph.tsx) and the chain editor (templates/chains/edit-graph.tsx) draw the
 * same shapes and differ only in what the label says.
 */

/** How far apart nodes stand in walk order. */
export const GAP = 200;
/** Where the diamond's corners are in a gate node (styles/graph.css `.gn-diamond`): edges meet them there. */
export const DIAMOND_MID = 29;

export function ExecShell({
  className,
  title,
  children,
}: {
  className: string;
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={`gn gn-exec ${className}`} title={title}>
      <Handle type="target" position={Position.Left} />
      <Handle type="target" id="back" position={Position.Bottom} />
      {children}
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

export function GateShell({ className, children }: { className: string; children: ReactNode }) {
  return (
    <div className={`gn gn-gate ${className}`}>
      <div className="gn-diamond" aria-hidden />
      <Handle type="target" position={Position.Left} style={{ top: DIAMOND_MID }} />
      <div className="gn-gate-label">{children}</div>
      <Handle type="source" position={Position.Right} style={{ top: DIAMOND_MID }} />
      <Handle type="source" id="reject" position={Position.Bottom} />
    </div>
  );
}
