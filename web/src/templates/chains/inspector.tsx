import { useState } from 'react';
import type { Problem, Result } from './draft-api.js';
import { Fields } from './fields.js';
import { Handlers, Slots } from './handlers.js';
import { edits, Order, Rename, Steps, type Ctx, type Run } from './parts.js';
import { problemsAt, type NodePart } from './shape.js';

/*
 * The selected node: rename in place, move, remove, extend or change its library base, its
 * handlers and slot tasks, and its steps and tasks with their fields (each from `sources`, with
 * a reset).
 */

export type { Run };

export interface InspectorProps {
  node: NodePart;
  at: number;
  count: number;
  problems: readonly Problem[];
  choices: Result['choices'];
  libNodes: string[];
  libTasks: string[];
  run: Run;
}

export function Inspector({ node, at, count, problems, choices, libNodes, libTasks, run }: InspectorProps) {
  const [base, setBase] = useState('');
  const ctx: Ctx = { problems, choices, libTasks, run };
  const inherits = node.extends !== null;
  return (
    <aside className="inspector ce-inspector" aria-label={`Node ${node.id}`}>
      <h2 className="ce-head">
        <span className="muted">{node.kind === 'gate' ? 'Gate' : 'Node'}</span>{' '}
        <Rename key={node.path} part={node} run={run} />
      </h2>
      <div className="ce-actions">
        <Order path={node.path} at={at} count={count} run={run} label={`node ${node.id}`} />
      </div>
      <form
        className="ce-inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (!base) return;
          void run([
            node.extends ? { op: 'change_base', node: node.id, base } : { op: 'extend', node: node.id, base },
          ]);
        }}
      >
        <span className="muted">{node.extends ? `extends ${node.extends}` : 'no library base'}</span>
        <select
          aria-label={`Library base of ${node.id}`}
          value={base}
          onChange={(e) => setBase(e.target.value)}
        >
          <option value="">(library node)</option>
          {libNodes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="submit">{node.extends ? 'Change base' : 'Extend'}</button>
      </form>
      <Fields
        scope="node"
        key={node.path}
        fields={node.fields}
        problems={problemsAt(problems, node.path)}
        choices={choices}
        inherits={inherits}
        edits={edits(node, run)}
      />
      {node.kind === 'exec' && (
        <>
          <h3>Steps</h3>
          <Steps container={node.path} steps={node.steps} inherits={inherits} ctx={ctx} />
          <Handlers node={node} ctx={ctx} />
        </>
      )}
      <Slots node={node} ctx={ctx} />
    </aside>
  );
}
