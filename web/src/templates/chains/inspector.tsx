import { useState } from 'react';
import type { ChainOp, Problem, Result } from './draft-api.js';
import { Fields } from './fields.js';
import { problemsAt, type NodePart, type Part } from './shape.js';

/*
 * The selected node: rename in place, move, remove, extend or change its library base, its
 * handlers, and its steps and tasks with their fields (each from `sources`, with a reset).
 */

export type Run = (ops: ChainOp[]) => Promise<boolean>;

const TASK_KINDS = ['subprocess', 'agent', 'builtin', 'forge'];

/** A part a library node brings: the file does not hold it, so it is changed in the library. */
function Inherited({ from }: { from: string }) {
  return (
    <span
      className="chip ce-src"
      title="Not written in this chain: change it in the library, or write the node out in the YAML view"
    >
      inherited from {from}
    </span>
  );
}

function Rename({ part, run }: { part: Part; run: Run }) {
  const [editing, setEditing] = useState(false);
  const [id, setId] = useState(part.id);
  if (!editing) {
    return (
      <button
        type="button"
        className="ce-id"
        aria-label={`Rename ${part.path}`}
        title="Rename"
        onClick={() => setEditing(true)}
      >
        {part.id}
      </button>
    );
  }
  return (
    <form
      className="ce-rename"
      onSubmit={(e) => {
        e.preventDefault();
        void run([{ op: 'rename', path: part.path, id }]).then((ok) => ok && setEditing(false));
      }}
    >
      <input
        aria-label={`New id of ${part.path}`}
        value={id}
        autoFocus
        onChange={(e) => setId(e.target.value)}
      />
      <button type="submit">Rename</button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}

function Order({
  path,
  at,
  count,
  run,
  label,
}: {
  path: string;
  at: number;
  count: number;
  run: Run;
  label: string;
}) {
  return (
    <>
      <button
        type="button"
        aria-label={`Move ${label} up`}
        disabled={at === 0}
        onClick={() => void run([{ op: 'move', path, to: at - 1 }])}
      >
        ↑
      </button>
      <button
        type="button"
        aria-label={`Move ${label} down`}
        disabled={at >= count - 1}
        onClick={() => void run([{ op: 'move', path, to: at + 1 }])}
      >
        ↓
      </button>
      <button
        type="button"
        className="danger"
        aria-label={`Remove ${label}`}
        onClick={() => void run([{ op: 'remove', path }])}
      >
        Remove
      </button>
    </>
  );
}

function AddTask({
  node,
  step,
  libTasks,
  run,
}: {
  node: string;
  step: string;
  libTasks: string[];
  run: Run;
}) {
  const [kind, setKind] = useState('subprocess');
  return (
    <form
      className="ce-inline"
      onSubmit={(e) => {
        e.preventDefault();
        const lib = kind.startsWith('tasks.') ? kind.slice('tasks.'.length) : null;
        void run([
          lib
            ? { op: 'add_task', container: node, step, extends: lib }
            : { op: 'add_task', container: node, step, kind },
        ]);
      }}
    >
      <select
        aria-label={`Kind of the new task in ${node}.${step}`}
        value={kind}
        onChange={(e) => setKind(e.target.value)}
      >
        {TASK_KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
        {libTasks.map((t) => (
          <option key={t} value={`tasks.${t}`}>
            library: {t}
          </option>
        ))}
      </select>
      <button type="submit">Add task</button>
    </form>
  );
}

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
  const edits = (p: Part) => ({
    set: async (field: string, value: unknown) => {
      await run([{ op: 'set_field', path: p.path, field, value }]);
    },
    reset: async (field: string) => {
      await run([{ op: 'reset_field', path: p.path, field }]);
    },
  });
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
        key={node.path}
        fields={node.fields}
        problems={problemsAt(problems, node.path)}
        choices={choices}
        inherits={inherits}
        edits={edits(node)}
      />
      {node.kind === 'exec' && (
        <>
          <h3>Handlers</h3>
          <div className="ce-actions">
            {(['on_failure', 'fix_loop', 'on_conflict'] as const).map((k) =>
              node.handlers.includes(k) ? (
                <button
                  key={k}
                  type="button"
                  onClick={() => void run([{ op: 'remove_handler', path: node.path, kind: k }])}
                >
                  Remove {k}
                </button>
              ) : (
                <button
                  key={k}
                  type="button"
                  onClick={() => void run([{ op: 'add_handler', path: node.path, kind: k }])}
                >
                  Add {k}
                </button>
              ),
            )}
          </div>
          <h3>Steps</h3>
          {node.steps.map((s, si) => (
            <section key={s.path} className="ce-step" aria-label={`Step ${s.path}`}>
              <h4 className="ce-head">
                <Rename key={s.path} part={s} run={run} />
                {s.origin && <Inherited from={s.origin} />}
                <span className="ce-actions">
                  <Order path={s.path} at={si} count={node.steps.length} run={run} label={`step ${s.path}`} />
                </span>
              </h4>
              <Fields
                key={s.path}
                fields={s.fields}
                problems={problemsAt(problems, s.path)}
                choices={choices}
                inherits={s.extends !== null || inherits}
                edits={edits(s)}
              />
              {s.tasks.map((t, ti) => (
                <section key={t.path} className="ce-task" aria-label={`Task ${t.path}`}>
                  <h5 className="ce-head">
                    <Rename key={t.path} part={t} run={run} />
                    <span className="muted">{t.extends ? `library ${t.extends}` : (t.kind ?? '')}</span>
                    {t.origin && <Inherited from={t.origin} />}
                    <span className="ce-actions">
                      <Order
                        path={t.path}
                        at={ti}
                        count={s.tasks.length}
                        run={run}
                        label={`task ${t.path}`}
                      />
                    </span>
                  </h5>
                  <Fields
                    key={t.path}
                    fields={t.fields}
                    problems={problemsAt(problems, t.path)}
                    choices={choices}
                    inherits={t.extends !== null || inherits}
                    edits={edits(t)}
                  />
                </section>
              ))}
              <AddTask node={node.id} step={s.id} libTasks={libTasks} run={run} />
            </section>
          ))}
          {node.steps.length === 0 && <AddTask node={node.id} step="main" libTasks={libTasks} run={run} />}
          <button
            type="button"
            onClick={() => void run([{ op: 'add_step', container: node.path, at: node.steps.length }])}
          >
            Add step
          </button>
        </>
      )}
    </aside>
  );
}
