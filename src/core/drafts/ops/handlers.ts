import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { isObj, OpRefused, type Obj, type OpDocs } from './context.js';
import { locateInChain, locateInLibrary, type Located } from './locate.js';
import {
  article,
  HANDLER_KINDS,
  inherited,
  isHandlerKind,
  locateIn,
  nodeKind,
  target,
  type HandlerKind,
  type Target,
} from './structure.js';

/*
 * `add_handler` and `remove_handler` (spec drafts.md, "Chain and library ops"), and how any
 * component held by a key (a handler, a slot task) is taken out.
 *
 * A handler belongs on an exec node; `on_failure` is also taken by a step or task that is not
 * itself inside a handler (handlers do not nest). A new handler holds one empty step `main`,
 * written as the shorthand `tasks: []`. A component that a library parent supplies cannot simply
 * be deleted, or the inherited one would show through: it is written null, which removes it.
 */

const EMPTY_PLAN = (): Obj => ({ tasks: [] });

/** The handler's place: the mapping holding it and the key it is under. */
interface Place {
  owner: Obj;
  key: HandlerKind;
  path: string;
}

/** Whether a component sits inside a handler (its path passes through one). */
const inHandler = (l: Located): boolean =>
  l.path
    .split('.')
    .slice(0, -1)
    .some((s) => (HANDLER_KINDS as readonly string[]).includes(s));

function checkKind(kind: string): HandlerKind {
  if (!isHandlerKind(kind)) {
    throw new OpRefused(`kind \`${kind}\` is not a handler: \`on_failure\`, \`fix_loop\` or \`on_conflict\``);
  }
  return kind;
}

/** Refuses a component that cannot hold a handler of this kind. */
function checkHolder(t: Target, l: Located, kind: HandlerKind): void {
  if (l.kind === 'node') {
    if (nodeKind(l.value, t.lib) === 'gate') {
      throw new OpRefused(`\`${l.path}\` is a gate: handlers belong on an exec node`);
    }
    return;
  }
  if (kind === 'on_failure' && (l.kind === 'step' || l.kind === 'task')) {
    if (inHandler(l)) throw new OpRefused(`\`${l.path}\` is inside a handler: handlers do not nest`);
    return;
  }
  const takers = kind === 'on_failure' ? 'an exec node, a step or a task' : 'an exec node';
  throw new OpRefused(`\`${l.path || '""'}\` is ${article(l.kind)}: \`${kind}\` belongs on ${takers}`);
}

interface Current {
  /** As the component resolves it: its own when written (null: removed), else inherited. */
  value: unknown;
  /** Whether the component writes it itself. */
  own: boolean;
  /** Whether a library parent supplies one. */
  inherited: boolean;
}

function current(t: Target, l: Located, kind: HandlerKind): Current {
  const node = l.value;
  const inh = inherited(t, l);
  if (kind !== 'on_conflict') {
    const own = Object.hasOwn(node, kind);
    return { value: own ? node[kind] : inh[kind], own, inherited: isObj(inh[kind]) };
  }
  const inhObc = isObj(inh.on_base_changed) ? inh.on_base_changed : {};
  const supplied = isObj(inhObc.on_conflict);
  const obc = Object.hasOwn(node, 'on_base_changed') ? node.on_base_changed : inh.on_base_changed;
  if (!isObj(obc)) return { value: undefined, own: false, inherited: supplied };
  const ownObc = isObj(node.on_base_changed) ? node.on_base_changed : {};
  const own = Object.hasOwn(ownObc, 'on_conflict');
  return { value: own ? ownObc.on_conflict : inhObc.on_conflict, own, inherited: supplied };
}

function placeOf(l: Located, kind: HandlerKind): Place {
  if (kind !== 'on_conflict') return { owner: l.value, key: kind, path: `${l.path}.${kind}` };
  if (!isObj(l.value.on_base_changed)) l.value.on_base_changed = {};
  const owner = l.value.on_base_changed;
  return { owner: isObj(owner) ? owner : {}, key: kind, path: `${l.path}.on_base_changed.on_conflict` };
}

export function addHandler(docs: OpDocs, op: ChainOpOf<'add_handler'>): { path: string } {
  const kind = checkKind(op.kind);
  const t = target(docs);
  const l = locateIn(t, op.path);
  checkHolder(t, l, kind);
  const now = current(t, l, kind);
  const where = kind === 'on_conflict' ? `${l.path}.on_base_changed.on_conflict` : `${l.path}.${kind}`;
  if (isObj(now.value)) {
    const from = now.own ? '' : ' (inherited)';
    throw new OpRefused(`\`${l.path}\` already has \`${kind}\`${from} at \`${where}\``);
  }
  const place = placeOf(l, kind);
  place.owner[place.key] = EMPTY_PLAN();
  return { path: place.path };
}

/** Drops an emptied `on_base_changed`: it adds nothing over an inherited one, and alone means nothing. */
function tidyOnBaseChanged(node: Obj | null): void {
  if (node && isObj(node.on_base_changed) && Object.keys(node.on_base_changed).length === 0) {
    delete node.on_base_changed;
  }
}

export function removeHandler(docs: OpDocs, op: ChainOpOf<'remove_handler'>): undefined {
  const kind = checkKind(op.kind);
  const t = target(docs);
  const l = locateIn(t, op.path);
  checkHolder(t, l, kind);
  const now = current(t, l, kind);
  if (!isObj(now.value)) throw new OpRefused(`\`${l.path}\` has no \`${kind}\` to remove`);
  const place = placeOf(l, kind);
  if (now.inherited) place.owner[place.key] = null;
  else delete place.owner[place.key];
  tidyOnBaseChanged(l.value);
  return undefined;
}

/** Keys whose schema takes null (removing what a library parent supplies); a judge's does not. */
const NULLABLE = new Set([
  'on_failure',
  'fix_loop',
  'on_conflict',
  'escalation',
  'auto_review',
  'on_base_changed',
]);

/**
 * Takes out a component held by a key (handler, slot task, `on_base_changed`): written null when
 * the container's library parent supplies one, else deleted.
 */
export function removeKeyed(t: Target, l: Located): void {
  const h = l.holder;
  if (h.type !== 'key') return;
  const segs = l.path.split('.');
  const up = segs.slice(0, l.kind === 'escalation' ? -2 : -1).join('.');
  const container = t.library ? locateInLibrary(t.doc, up) : locateInChain(t.doc, up);
  const supplied = container !== null && isObj(inherited(t, container)[h.key]);
  if (supplied && NULLABLE.has(h.key)) h.obj[h.key] = null;
  else delete h.obj[h.key];
  tidyOnBaseChanged(l.node);
}

/**
 * Writes null over a handler or slot task that a component only inherits (it has no place of its
 * own in the file, so a path to it does not locate): `remove` of such a path. False when the
 * component inherits none there.
 */
export function nullInherited(
  t: Target,
  l: Located,
  key: HandlerKind | 'escalation' | 'auto_review',
  id?: string,
): boolean {
  if (isHandlerKind(key)) {
    const now = current(t, l, key);
    if (now.own || !isObj(now.value)) return false;
    const place = placeOf(l, key);
    place.owner[place.key] = null;
    return true;
  }
  const inh = inherited(t, l)[key];
  if (Object.hasOwn(l.value, key) || !isObj(inh)) return false;
  if (id !== undefined && (typeof inh.id === 'string' ? inh.id : 'escalate') !== id) return false;
  l.value[key] = null;
  return true;
}
