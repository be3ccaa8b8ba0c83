import { own } from '../../json/own.js';
import { RESERVED_SEGMENTS } from '../../../contract/config/ids.js';
import { TASK_KINDS } from '../../../contract/config/task.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { checkNewId, idsOf, isObj, OpRefused, uniqueId, type Obj, type OpDocs } from './context.js';
import { mustLocate, type Located } from './locate.js';
import {
  article,
  checkStepContainer,
  heldSteps,
  inherited,
  locateIn,
  nodeKind,
  ownSteps,
  stepIds,
  stepTasks,
  target,
  type Target,
} from './structure.js';

/*
 * `add_task` (spec drafts.md, "Chain and library ops"), in two forms:
 * - step form (`container`, `step`): a task appended to a step of a node or handler. On the
 *   library a step of `nodes.<name>` works the same way, and a library step is named either as
 *   `container: steps, step: <name>` or as `container: steps.<name>` alone (the component is
 *   itself the step); both answer `steps.<name>.<id>`. Step `main` on a container holding no
 *   step yet starts the tasks shorthand.
 * - slot form (`slot`, `node`): a node's judge (its fix loop must exist, own or inherited),
 *   escalation (exec nodes) or auto_review (gates).
 * The task is `{id, kind}` or `{id, extends}`; what else it needs is left to the editor, shown
 * as problems until written.
 */

type Body = { kind: string } | { extends: string };

const SLOTS = {
  judge: { id: 'judge', path: 'fix_loop.judge' },
  escalation: { id: 'escalate', path: 'escalation.escalate' },
  auto_review: { id: 'reviewer', path: 'auto_review' },
} as const;
type Slot = keyof typeof SLOTS;
const isSlot = (s: string): s is Slot => Object.hasOwn(SLOTS, s);

function bodyOf(t: Target, op: ChainOpOf<'add_task'>): Body {
  if (op.kind !== undefined && op.extends !== undefined) {
    throw new OpRefused('give `kind` or `extends`, not both: a task extending a library task takes its kind');
  }
  if (op.kind !== undefined) {
    if (!(TASK_KINDS as readonly string[]).includes(op.kind)) {
      throw new OpRefused(
        `kind \`${op.kind}\` is not a task kind: ${TASK_KINDS.map((k) => `\`${k}\``).join(', ')}`,
      );
    }
    return { kind: op.kind };
  }
  if (op.extends !== undefined) {
    const tasks = isObj(t.lib) ? t.lib.tasks : undefined;
    if (!isObj(tasks) || !isObj(own(tasks, op.extends))) {
      throw new OpRefused(`extends \`${op.extends}\`: the library has no task of that name`);
    }
    return { extends: op.extends };
  }
  throw new OpRefused('give `kind` (a new task) or `extends` (a library task)');
}

function newTask(op: ChainOpOf<'add_task'>, body: Body, taken: readonly string[]): Obj {
  const base = 'kind' in body ? body.kind : body.extends;
  // A default id must also avoid the reserved segments (a library task may be named `judge`).
  const id =
    op.id === undefined
      ? uniqueId(base, [...taken, ...RESERVED_SEGMENTS])
      : checkNewId(op.id, taken, 'task id');
  return { id, ...body };
}

/** Appends to a step's own list, copying in the tasks it inherits first. */
function append(t: Target, step: Obj, task: Obj): void {
  if (!Array.isArray(step.tasks)) step.tasks = structuredClone(stepTasks(t, step));
  if (Array.isArray(step.tasks)) step.tasks.push(task);
}

function toLibraryStep(t: Target, name: string, op: ChainOpOf<'add_task'>, body: Body): { path: string } {
  const l = locateIn(t, `steps.${name}`);
  const task = newTask(op, body, idsOf(stepTasks(t, l.value)));
  append(t, l.value, task);
  return { path: `steps.${name}.${String(task.id)}` };
}

function toStep(t: Target, op: ChainOpOf<'add_task'>, body: Body): { path: string } {
  const container = op.container ?? '';
  const [head, name, ...more] = container.split('.');
  if (t.library && head === 'steps' && more.length === 0) {
    if (name === undefined) return toLibraryStep(t, op.step ?? '', op, body);
    if (op.step === undefined) return toLibraryStep(t, name, op, body);
    throw new OpRefused(
      `\`${container}\` is a library step: name it as \`container: ${container}\` alone, or as \`container: steps\` with \`step: ${name}\``,
    );
  }
  const stepId = op.step ?? '';
  const l = locateIn(t, container);
  checkStepContainer(l, t.lib);
  const has = heldSteps(t, l);
  const ids = stepIds(has);
  const starts = stepId === 'main' && ids.length === 0;
  if (!starts && !ids.includes(stepId)) {
    const list = ids.map((s) => `\`${s}\``).join(', ') || 'none';
    throw new OpRefused(`\`${l.path}\` has no step \`${stepId}\`: its steps are ${list}`);
  }
  let viewed: unknown[] = [];
  if (stepId === 'main' && Array.isArray(has.tasks)) viewed = has.tasks;
  else if (!starts) viewed = stepTasks(t, stepOf(has, stepId));
  const task = newTask(op, body, idsOf(viewed));

  ownSteps(t, l);
  if (starts) l.value.tasks = [];
  const step = mustLocate(t.doc, `${l.path}.${stepId}`, t.library);
  // The shorthand's step shares the node's own `tasks` list, so pushing to it lands in place.
  append(t, step.value, task);
  return { path: `${l.path}.${stepId}.${String(task.id)}` };
}

function stepOf(has: Obj, id: string): Obj {
  const steps: unknown[] = Array.isArray(has.steps) ? has.steps : [];
  const found = steps.find((s) => isObj(s) && s.id === id);
  return isObj(found) ? found : {};
}

/** The node's slot value as it resolves: own when written (null: removed), else inherited. */
function resolvedKey(own: Obj, inh: Obj, key: string): unknown {
  return Object.hasOwn(own, key) ? own[key] : inh[key];
}

function checkSlot(t: Target, l: Located, slot: Slot): void {
  const node = l.value;
  const kind = nodeKind(node, t.lib);
  const inh = inherited(t, l);
  if (slot === 'judge') {
    const loop = resolvedKey(node, inh, 'fix_loop');
    if (!isObj(loop)) {
      throw new OpRefused(
        `\`${l.path}\` has no fix loop: a judge needs one (add_handler \`fix_loop\` first)`,
      );
    }
    const judge = resolvedKey(
      isObj(node.fix_loop) ? node.fix_loop : {},
      isObj(inh.fix_loop) ? inh.fix_loop : {},
      'judge',
    );
    if (isObj(judge))
      throw new OpRefused(`\`${l.path}\` already has a judge at \`${l.path}.fix_loop.judge\``);
    return;
  }
  if (slot === 'escalation' && kind === 'gate') {
    throw new OpRefused(`\`${l.path}\` is a gate: escalation belongs on an exec node`);
  }
  if (slot === 'auto_review' && kind !== 'gate') {
    throw new OpRefused(`\`${l.path}\` is an exec node: auto_review belongs on a gate`);
  }
  if (isObj(resolvedKey(node, inh, slot))) {
    throw new OpRefused(`\`${l.path}\` already has ${article(slot)} at \`${l.path}.${SLOTS[slot].path}\``);
  }
}

function toSlot(t: Target, op: ChainOpOf<'add_task'>, body: Body): { path: string } {
  const slot = op.slot ?? '';
  if (!isSlot(slot)) {
    throw new OpRefused(`slot \`${slot}\` is not a task slot: \`judge\`, \`escalation\` or \`auto_review\``);
  }
  if (op.id !== undefined) {
    throw new OpRefused(`id is taken only in the step form: the ${slot} task's id is \`${SLOTS[slot].id}\``);
  }
  const l = locateIn(t, op.node ?? '');
  if (l.kind !== 'node')
    throw new OpRefused(`\`${l.path}\` is ${article(l.kind)}: a task slot belongs to a node`);
  checkSlot(t, l, slot);
  const task: Obj = { id: SLOTS[slot].id, ...body };
  const node = l.value;
  if (slot === 'judge') {
    // Over an inherited fix loop, a mapping holding only the judge merges into it.
    if (isObj(node.fix_loop)) node.fix_loop.judge = task;
    else node.fix_loop = { judge: task };
  } else node[slot] = task;
  return { path: `${l.path}.${SLOTS[slot].path}` };
}

export function addTask(docs: OpDocs, op: ChainOpOf<'add_task'>): { path: string } {
  const stepForm = op.container !== undefined || op.step !== undefined;
  const slotForm = op.slot !== undefined || op.node !== undefined;
  if (stepForm && slotForm) {
    throw new OpRefused(
      'give the step form (`container`, `step`) or the slot form (`slot`, `node`), not both',
    );
  }
  if (!stepForm && !slotForm) {
    throw new OpRefused('neither form is complete: give `container` and `step`, or `slot` and `node`');
  }
  const t = target(docs);
  if (stepForm && op.step === undefined && !(t.library && /^steps\.[^.]+$/.test(op.container ?? ''))) {
    throw new OpRefused('the step form needs both `container` and `step`');
  }
  if (stepForm && op.container === undefined)
    throw new OpRefused('the step form needs both `container` and `step`');
  if (slotForm && (op.slot === undefined || op.node === undefined)) {
    throw new OpRefused('the slot form needs both `slot` and `node`');
  }
  const body = bodyOf(t, op);
  return stepForm ? toStep(t, op, body) : toSlot(t, op, body);
}
