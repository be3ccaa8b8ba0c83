import { useState } from 'react';
import type { ChainOp, Problem, Result } from './draft-api.js';
import { Fields, type FieldEdits } from './fields.js';
import { problemsAt, type Part, type StepPart, type TaskPart } from './shape.js';

/*
 * The pieces the inspector draws a node's steps and tasks with, wherever they sit: in the node,
 * in one of its handlers, or in a slot. Each change is one op on the draft.
 */

export type Run = (ops: ChainOp[]) => Promise<boolean>;

const TASK_KINDS = ['subprocess', 'agent', 'builtin', 'forge'];

/** What a component's fields need besides the component: the problems, the closed sets, the ops. */
export interface Ctx {
  problems: readonly Problem[];
  choices: Result['choices'];
  libTasks: string[];
  run: Run;
}

export function edits(p: Part, run: Run): FieldEdits {
  return {
    set: async (field: string, value: unknown) => {
      await run([{ op: 'set_field', path: p.path, field, value }]);
    },
    reset: async (field: string) => {
      await run([{ op: 'reset_field', path: p.path, field }]);
    },
  };
}

/** A part a library node brings: the file does not hold it, so it is changed in the library. */
export function Inherited({ from }: { from: string }) {
  return (
    <span
      className="chip ce-src"
      title="Not written in this chain: change it in the library, or write the node out in the YAML view"
    >
      inherited from {from}
    </span>
  );
}

export function Rename({ part, run }: { part: Part; run: Run }) {
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

export function Order({
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

/** A kind, or a library task as `tasks.<name>`: the body of a new task. */
export function KindSelect({
  label,
  value,
  onChange,
  libTasks,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  libTasks: string[];
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
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
  );
}

/** `{kind}` or `{extends}` of an `add_task` from a KindSelect's value. */
export const taskBody = (kind: string) =>
  kind.startsWith('tasks.') ? { extends: kind.slice('tasks.'.length) } : { kind };

export function AddTask({ container, step, ctx }: { container: string; step: string; ctx: Ctx }) {
  const [kind, setKind] = useState('subprocess');
  return (
    <form
      className="ce-inline"
      onSubmit={(e) => {
        e.preventDefault();
        void ctx.run([{ op: 'add_task', container, step, ...taskBody(kind) }]);
      }}
    >
      <KindSelect
        label={`Kind of the new task in ${container}.${step}`}
        value={kind}
        onChange={setKind}
        libTasks={ctx.libTasks}
      />
      <button type="submit">Add task</button>
    </form>
  );
}

export function TaskView({
  task,
  at,
  count,
  inherits,
  ctx,
}: {
  task: TaskPart;
  at: number;
  count: number;
  inherits: boolean;
  ctx: Ctx;
}) {
  return (
    <section className="ce-task" aria-label={`Task ${task.path}`}>
      <h5 className="ce-head">
        <Rename key={task.path} part={task} run={ctx.run} />
        <span className="muted">{task.extends ? `library ${task.extends}` : (task.kind ?? '')}</span>
        {task.origin && <Inherited from={task.origin} />}
        <span className="ce-actions">
          <Order path={task.path} at={at} count={count} run={ctx.run} label={`task ${task.path}`} />
        </span>
      </h5>
      <Fields
        scope="task"
        key={task.path}
        fields={task.fields}
        problems={problemsAt(ctx.problems, task.path)}
        choices={ctx.choices}
        inherits={task.extends !== null || inherits}
        edits={edits(task, ctx.run)}
      />
    </section>
  );
}

/** The steps of a node or a handler (`container`), each with its tasks, and Add step. */
export function Steps({
  container,
  steps,
  inherits,
  ctx,
}: {
  container: string;
  steps: StepPart[];
  inherits: boolean;
  ctx: Ctx;
}) {
  return (
    <>
      {steps.map((s, si) => (
        <section key={s.path} className="ce-step" aria-label={`Step ${s.path}`}>
          <h4 className="ce-head">
            <Rename key={s.path} part={s} run={ctx.run} />
            {s.origin && <Inherited from={s.origin} />}
            <span className="ce-actions">
              <Order path={s.path} at={si} count={steps.length} run={ctx.run} label={`step ${s.path}`} />
            </span>
          </h4>
          <Fields
            scope="step"
            key={s.path}
            fields={s.fields}
            problems={problemsAt(ctx.problems, s.path)}
            choices={ctx.choices}
            inherits={s.extends !== null || inherits}
            edits={edits(s, ctx.run)}
          />
          {s.tasks.map((t, ti) => (
            <TaskView key={t.path} task={t} at={ti} count={s.tasks.length} inherits={inherits} ctx={ctx} />
          ))}
          <AddTask container={container} step={s.id} ctx={ctx} />
        </section>
      ))}
      {steps.length === 0 && <AddTask container={container} step="main" ctx={ctx} />}
      <button
        type="button"
        aria-label={`Add step to ${container}`}
        onClick={() => void ctx.run([{ op: 'add_step', container, at: steps.length }])}
      >
        Add step
      </button>
    </>
  );
}
