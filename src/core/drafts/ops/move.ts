import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { checkPosition, idsOf, isObj, OpRefused, type OpDocs } from './context.js';
import { orderProblems } from './chain-order.js';
import { detach, mustLocate, type Located } from './locate.js';
import { article, locateIn, stepIds, stepTasks, target, type Target } from './structure.js';

/*
 * `move` (spec drafts.md, "Chain and library ops"): a node, step or task to another place in its
 * own list, or (with `to_step`) a task to a sibling step of its own step's container. A library
 * component is kept by name, in no order, so it does not move; the steps and tasks inside one do.
 *
 * A node move is refused only when it adds an order problem: a chain already holding one can
 * still be reordered, as long as the move does not make it worse.
 */

function reorder(list: unknown[], from: number, to: number): void {
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item);
}

function checkNodeOrder(t: Target, l: Located, from: number, to: number): void {
  const trial = structuredClone(t.doc);
  if (!isObj(trial) || !Array.isArray(trial.nodes)) return;
  reorder(trial.nodes, from, to);
  const before = orderProblems(t.doc, t.lib);
  const added = orderProblems(trial, t.lib).filter((p) => !before.includes(p));
  if (added.length > 0) {
    throw new OpRefused(`moving \`${l.path}\` to ${to} adds an order problem: ${added.join('; ')}`);
  }
}

/** A task moving to a sibling step: `to` is its place among the destination's tasks. */
function moveToStep(t: Target, l: Located, toStep: string, to: number): void {
  if (l.kind !== 'task' || l.holder.type !== 'list') {
    throw new OpRefused(`\`${l.path}\` is ${article(l.kind)}: \`to_step\` moves a task of a step`);
  }
  const segs = l.path.split('.');
  const stepPath = segs.slice(0, -1).join('.');
  const containerPath = segs.slice(0, -2).join('.');
  const container =
    containerPath === '' || (t.library && segs[0] === 'steps')
      ? null
      : mustLocate(t.doc, containerPath, t.library);
  if (!container) throw new OpRefused(`\`${stepPath}\` is a library step: it has no step beside it`);
  const siblings = stepIds(container.value);
  if (!siblings.includes(toStep)) {
    const list = siblings.map((s) => `\`${s}\``).join(', ');
    throw new OpRefused(
      `to_step \`${toStep}\` is not a step beside \`${stepPath}\`: the steps of \`${container.path}\` are ${list}`,
    );
  }
  const dest = mustLocate(t.doc, `${container.path}.${toStep}`, t.library);
  if (dest.path === stepPath) {
    reorder(l.holder.list, l.holder.index, checkPosition(to, l.holder.list.length, 'to', false));
    return;
  }
  const tasks = stepTasks(t, dest.value);
  const id = typeof l.value.id === 'string' ? l.value.id : segs[segs.length - 1];
  if (id !== undefined && idsOf(tasks).includes(id)) {
    throw new OpRefused(`step \`${dest.path}\` already holds a task \`${id}\``);
  }
  const at = checkPosition(to, tasks.length, 'to', true);
  // A step inheriting its tasks from a library step takes them in first: a list replaces whole.
  if (!Array.isArray(dest.value.tasks)) dest.value.tasks = structuredClone(tasks);
  detach(l);
  if (Array.isArray(dest.value.tasks)) dest.value.tasks.splice(at, 0, l.value);
}

export function move(docs: OpDocs, op: ChainOpOf<'move'>): undefined {
  const t = target(docs);
  const l = locateIn(t, op.path);
  if (l.library) {
    throw new OpRefused(
      `\`${l.path}\` is a library component: library.yaml keeps components by name, in no order`,
    );
  }
  if (op.to_step !== undefined) {
    moveToStep(t, l, op.to_step, op.to);
    return undefined;
  }
  const h = l.holder;
  if (h.type === 'shorthand') {
    // The shorthand's step is the container's only one.
    checkPosition(op.to, 1, 'to', false);
    return undefined;
  }
  if (h.type !== 'list') {
    throw new OpRefused(
      `\`${l.path || '""'}\` is ${article(l.kind)}: only nodes, steps and tasks have a place in a list`,
    );
  }
  const to = checkPosition(op.to, h.list.length, 'to', false);
  if (to === h.index) return undefined;
  if (l.kind === 'node') checkNodeOrder(t, l, h.index, to);
  reorder(h.list, h.index, to);
  return undefined;
}
