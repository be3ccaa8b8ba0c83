import { useState } from 'react';
import { Fields } from './fields.js';
import { edits, Inherited, KindSelect, Steps, taskBody, type Ctx } from './parts.js';
import { problemsAt, type HandlerKind, type NodePart, type SlotName, type SlotPart } from './shape.js';

/*
 * A node's handlers (recovery, fix loop, conflict plan) with the steps and tasks inside each, and
 * its slot tasks (a fix loop's judge, an exec node's escalation, a gate's auto review): the same
 * fields and ops as the node's own tasks, at the paths the server gives them.
 */

const HANDLERS: readonly HandlerKind[] = ['on_failure', 'fix_loop', 'on_conflict'];

const SLOT_TITLE: Record<SlotName, string> = {
  judge: 'Judge (fix loop)',
  escalation: 'Escalation',
  auto_review: 'Auto review',
};

export function Handlers({ node, ctx }: { node: NodePart; ctx: Ctx }) {
  const inherits = node.extends !== null;
  return (
    <>
      <h3>Handlers</h3>
      <div className="ce-actions">
        {HANDLERS.map((k) =>
          node.handlers.includes(k) ? (
            <button
              key={k}
              type="button"
              onClick={() => void ctx.run([{ op: 'remove_handler', path: node.path, kind: k }])}
            >
              Remove {k}
            </button>
          ) : (
            <button
              key={k}
              type="button"
              onClick={() => void ctx.run([{ op: 'add_handler', path: node.path, kind: k }])}
            >
              Add {k}
            </button>
          ),
        )}
      </div>
      {node.handlerParts.map((h) => (
        <section key={h.path} className="ce-handler" aria-label={`Handler ${h.path}`}>
          <h4 className="ce-head">
            {h.kind}
            <span className="muted">{h.path}</span>
          </h4>
          {problemsAt(ctx.problems, h.path).map((p, i) => (
            <p key={i} className="ce-problem" role="alert">
              {p.field ? `${p.field}: ` : ''}
              {p.message}
            </p>
          ))}
          <Steps container={h.path} steps={h.steps} inherits={inherits} ctx={ctx} />
        </section>
      ))}
    </>
  );
}

function AddSlot({ node, slot, ctx }: { node: NodePart; slot: SlotName; ctx: Ctx }) {
  const [kind, setKind] = useState('subprocess');
  return (
    <form
      className="ce-inline"
      onSubmit={(e) => {
        e.preventDefault();
        void ctx.run([{ op: 'add_task', slot, node: node.id, ...taskBody(kind) }]);
      }}
    >
      <KindSelect
        label={`Kind of the ${slot} task of ${node.id}`}
        value={kind}
        onChange={setKind}
        libTasks={ctx.libTasks}
      />
      <button type="submit">Add {slot}</button>
    </form>
  );
}

function SlotView({ task, node, ctx }: { task: SlotPart; node: NodePart; ctx: Ctx }) {
  return (
    <section className="ce-task ce-slot" aria-label={`Task ${task.path}`}>
      <h5 className="ce-head">
        <span>{SLOT_TITLE[task.slot]}</span>
        <span className="muted">
          {task.id} · {task.extends ? `library ${task.extends}` : (task.kind ?? '')}
        </span>
        {task.origin && <Inherited from={task.origin} />}
        <span className="ce-actions">
          <button
            type="button"
            className="danger"
            aria-label={`Remove task ${task.path}`}
            onClick={() => void ctx.run([{ op: 'remove', path: task.path }])}
          >
            Remove
          </button>
        </span>
      </h5>
      <Fields
        scope="task"
        key={task.path}
        fields={task.fields}
        problems={problemsAt(ctx.problems, task.path)}
        choices={ctx.choices}
        inherits={task.extends !== null || node.extends !== null}
        edits={edits(task, ctx.run)}
      />
    </section>
  );
}

/** The slots a node can fill: a judge once it has a fix loop, escalation on exec nodes, auto review on gates. */
export function Slots({ node, ctx }: { node: NodePart; ctx: Ctx }) {
  const open: SlotName[] =
    node.kind === 'gate'
      ? ['auto_review']
      : node.handlers.includes('fix_loop')
        ? ['judge', 'escalation']
        : ['escalation'];
  return (
    <>
      <h3>Slot tasks</h3>
      {node.slots.map((t) => (
        <SlotView key={t.path} task={t} node={node} ctx={ctx} />
      ))}
      {open
        .filter((slot) => !node.slots.some((t) => t.slot === slot))
        .map((slot) => (
          <AddSlot key={slot} node={node} slot={slot} ctx={ctx} />
        ))}
    </>
  );
}
