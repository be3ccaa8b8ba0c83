import { own, setOwn } from '../../json/own.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { isObj, OpRefused, type Obj, type OpDocs } from './context.js';
import { opDoc, writeShorthand } from './fragment.js';
import { extendsSomething, libraryForLookup, parentLayer, routeRivals, valueAt } from './inherited.js';
import { mustLocate, type Located } from './locate.js';
import { sameData } from '../../json/same.js';

/*
 * `set_field` and `reset_field` (spec drafts.md, "set_field writing rules"). A file should hold
 * only what a person chose: an empty value, or one equal to what the component inherits, is not
 * written, so the component keeps following its library parent.
 *
 * Decisions the spec leaves open:
 * - A removal also removes the mappings it leaves empty, up to the component (`policy: {}` is
 *   never left behind); mappings that were empty before are left alone.
 * - A dotted field creates missing mappings and replaces a null one (`on_failure: null` then
 *   `on_failure.tasks`); it is refused through a list or a scalar.
 * - `run`, `argv` and `command` replace one another like `profile` and `model`/`effort`, as an
 *   `extends` merge treats them.
 * - `artifact_required: false` is written when the inherited value is true (else removing it would
 *   bring the true back).
 * - `on_base_changed.restart_from` set empty on the node, or `restart_from` on the
 *   `node.on_base_changed` path, both remove the node's `on_base_changed`.
 * - reset_field refuses `id` as set_field does; a reset of a key not written changes nothing.
 * - On the tasks shorthand (`node.main`), a field other than `tasks` makes it a real step `main`.
 */

/** Fields reset_field without a field keeps: what makes the component itself. */
const RESET_KEEPS = new Set(['id', 'extends', 'icon', 'on_failure']);

function fieldSegs(field: string): string[] {
  const segs = field.split('.');
  if (segs.some((s) => s === ''))
    throw new OpRefused(`field \`${field}\` is not a dotted key such as \`policy.max_attempts\``);
  if (field === 'id')
    throw new OpRefused('field `id` is changed with rename, which also updates what names it');
  return segs;
}

/**
 * Removes a dotted key and the mappings its removal leaves empty; answers whether it was there.
 */
export function removeAt(obj: Obj, segs: readonly string[]): boolean {
  const [head, ...rest] = segs as [string, ...string[]];
  if (!Object.hasOwn(obj, head)) return false;
  if (rest.length === 0) {
    delete obj[head];
    return true;
  }
  const next = own(obj, head);
  if (!isObj(next) || !removeAt(next, rest)) return false;
  if (Object.keys(next).length === 0) delete obj[head];
  return true;
}

/** The mapping that holds the last segment, created as needed (checkWay ran first). */
function holderFor(obj: Obj, segs: readonly string[]): Obj {
  let cur = obj;
  for (const seg of segs.slice(0, -1)) {
    const v = own(cur, seg);
    const next: Obj = isObj(v) ? v : {};
    setOwn(cur, seg, next);
    cur = next;
  }
  return cur;
}

/** Refuses before any change a field whose way down crosses a list or a scalar. */
function checkWay(obj: Obj, segs: readonly string[], field: string): void {
  let cur: unknown = obj;
  for (const [i, seg] of segs.slice(0, -1).entries()) {
    const v: unknown = isObj(cur) ? own(cur, seg) : undefined;
    if (v === undefined || v === null) return;
    if (!isObj(v)) {
      const at = segs.slice(0, i + 1).join('.');
      throw new OpRefused(
        `field \`${field}\` goes through \`${at}\`, which holds ${Array.isArray(v) ? 'a list' : 'a value'}, not a mapping`,
      );
    }
    cur = v;
  }
}

const isEmpty = (v: unknown): boolean => v === null || v === '';

/** The shorthand's step is a stand-in: its changes go back to the owner's `tasks`. */
function done(l: Located): undefined {
  if (l.holder.type === 'shorthand') writeShorthand(l.holder.owner, l.value);
  return undefined;
}

/** Rule 4's `on_base_changed` removal: written null while the base node supplies one. */
function dropOnBaseChanged(node: Obj, inherited: unknown): void {
  if (isObj(inherited)) node.on_base_changed = null;
  else delete node.on_base_changed;
}

export function setField(docs: OpDocs, op: ChainOpOf<'set_field'>): undefined {
  const { doc, library } = opDoc(docs);
  const segs = fieldSegs(op.field);
  const l = mustLocate(doc, op.path, library);
  const lib = libraryForLookup(docs);
  const target = l.value;
  const inherited = (path: readonly string[]): unknown =>
    valueAt(parentLayer(doc, library, lib, l), path, lib);
  const last = segs.at(-1) ?? op.field;
  const value: unknown = op.value;

  if (isEmpty(value) && op.field === 'on_base_changed.restart_from') {
    dropOnBaseChanged(target, inherited(['on_base_changed']));
    return done(l);
  }
  if (
    isEmpty(value) &&
    l.kind === 'on_base_changed' &&
    op.field === 'restart_from' &&
    l.holder.type === 'key'
  ) {
    const node = l.holder.obj;
    const nodeLoc = mustLocate(doc, l.path.split('.').slice(0, -1).join('.'), library);
    dropOnBaseChanged(node, valueAt(parentLayer(doc, library, lib, nodeLoc), ['on_base_changed'], lib));
    return undefined;
  }
  if (isEmpty(value)) {
    removeAt(target, segs);
    if (last === 'artifact') removeAt(target, [...segs.slice(0, -1), 'artifact_required']);
    return done(l);
  }
  checkWay(target, segs, op.field);
  const was = inherited(segs);
  const rivals = routeRivals(last);
  if (rivals.length > 0) for (const r of rivals) removeAt(target, [...segs.slice(0, -1), r]);
  if (sameData(value, was) || (last === 'artifact_required' && value === false && was !== true)) {
    removeAt(target, segs);
    return done(l);
  }
  // Segments are the request's: each is a key of the file (`__proto__` too), never a prototype.
  setOwn(holderFor(target, segs), last, value);
  return done(l);
}

export function resetField(docs: OpDocs, op: ChainOpOf<'reset_field'>): undefined {
  const { doc, library } = opDoc(docs);
  const segs = op.field === undefined ? null : fieldSegs(op.field);
  const l = mustLocate(doc, op.path, library);
  if (segs) {
    removeAt(l.value, segs);
    return done(l);
  }
  if (!extendsSomething(l)) {
    throw new OpRefused(`\`${op.path}\` extends nothing, so it has no overrides: name the field to reset`);
  }
  for (const k of Object.keys(l.value)) if (!RESET_KEEPS.has(k)) delete l.value[k];
  return done(l);
}
