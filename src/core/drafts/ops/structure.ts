import { own } from '../../json/own.js';
import { isObj, LIBRARY_FILE, OpRefused, type Obj, type OpDocs } from './context.js';
import { opDoc } from './fragment.js';
import { parentLayer, resolvedLibrary } from './inherited.js';
import { mustLocate, type Located } from './locate.js';

/*
 * What the structural ops (add_step, add_task, add_handler, remove_handler, move, remove) share:
 * the document they work on, a node's kind through its `extends`, and a container's steps.
 *
 * A component built on a library one inherits what it does not write. Lists replace whole, so an
 * op adding a step or task to a node that inherits its steps first copies the inherited list in:
 * writing only the new entry would silently drop every inherited one.
 */

export interface Target {
  doc: unknown;
  library: boolean;
  file: string;
  /** library.yaml as read (null when there is none); only looked up, never created. */
  lib: unknown;
}

export function target(docs: OpDocs): Target {
  const { doc, library, file } = opDoc(docs);
  return { doc, library, file, lib: library ? doc : docs.doc(LIBRARY_FILE) };
}

export const locateIn = (t: Target, path: string): Located => mustLocate(t.doc, path, t.library);

/** A node's kind: its own, else its library parent's (followed up the `extends` chain), else exec. */
export function nodeKind(node: Obj, lib: unknown): string {
  const nodes = isObj(lib) && isObj(lib.nodes) ? lib.nodes : {};
  const seen = new Set<string>();
  for (let at: Obj = node; ;) {
    if (typeof at.kind === 'string') return at.kind;
    const ext = at.extends;
    const parent = typeof ext === 'string' ? own(nodes, ext) : undefined;
    if (typeof ext !== 'string' || seen.has(ext) || !isObj(parent)) return 'exec';
    seen.add(ext);
    at = parent;
  }
}

export const HANDLER_KINDS = ['on_failure', 'fix_loop', 'on_conflict'] as const;
export type HandlerKind = (typeof HANDLER_KINDS)[number];
export const isHandlerKind = (k: string): k is HandlerKind =>
  (HANDLER_KINDS as readonly string[]).includes(k);

/** What holds steps: an exec node or a handler plan. */
export function checkStepContainer(l: Located, lib: unknown): void {
  if (l.kind === 'node') {
    if (nodeKind(l.value, lib) === 'gate')
      throw new OpRefused(`\`${l.path}\` is a gate: a gate has no steps`);
    return;
  }
  if (isHandlerKind(l.kind)) return;
  throw new OpRefused(
    `\`${l.path}\` is ${article(l.kind)}: steps go in a node or a handler (on_failure, fix_loop, on_conflict)`,
  );
}

/** How a message names a kind of component: `a step`, `an \`escalation\``, `a \`fix_loop\``. */
export function article(kind: string): string {
  if (['escalation', 'auto_review', 'on_failure', 'on_conflict', 'on_base_changed'].includes(kind))
    return `an \`${kind}\``;
  if (kind === 'judge' || kind === 'fix_loop') return `a \`${kind}\``;
  return `a ${kind}`;
}

/** What a component inherits: its library parent, laid under what its own container inherits there. */
export function inherited(t: Target, l: Located): Obj {
  return parentLayer(t.doc, t.library, t.lib, l);
}

/** The steps a container holds: its own `steps`/`tasks` when it writes either, else the inherited ones. */
export function heldSteps(t: Target, l: Located): Obj {
  const c = l.value;
  const pick = (from: Obj): Obj => {
    const out: Obj = {};
    if (Array.isArray(from.tasks)) out.tasks = from.tasks;
    if (Array.isArray(from.steps)) out.steps = from.steps;
    return out;
  };
  if (c.steps !== undefined || c.tasks !== undefined) return pick(c);
  return pick(inherited(t, l));
}

/**
 * Makes a container hold its steps itself: when it writes neither `steps` nor `tasks`, the
 * inherited ones are copied in.
 */
export function ownSteps(t: Target, l: Located): void {
  const c = l.value;
  if (c.steps !== undefined || c.tasks !== undefined) return;
  for (const [k, v] of Object.entries(heldSteps(t, l))) c[k] = structuredClone(v);
}

/** The step ids a container holds: `main` for the tasks shorthand, then its `steps`. */
export function stepIds(c: Obj): string[] {
  const ids = Array.isArray(c.tasks) ? ['main'] : [];
  if (Array.isArray(c.steps)) {
    c.steps.forEach((s, i) => ids.push(isObj(s) && typeof s.id === 'string' ? s.id : `#${i}`));
  }
  return ids;
}

/** A step's tasks: its own list, else the list of the library step it extends. */
export function stepTasks(t: Target, step: Obj): unknown[] {
  if (Array.isArray(step.tasks)) return step.tasks;
  const base = typeof step.extends === 'string' ? resolvedLibrary(t.lib, 'steps', step.extends) : null;
  return base && Array.isArray(base.tasks) ? base.tasks : [];
}
