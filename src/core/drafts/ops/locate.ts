import { own } from '../../json/own.js';
import { isObj, OpRefused, type Obj } from './context.js';

/*
 * Finds the component at a canonical path (core/chain/paths.ts names them) in a chain or library
 * document, with where it sits so an op can replace, move or remove it. The tasks shorthand is a
 * step `main` whose `tasks` list is the node's (or plan's) own, so changes to it land in place.
 */

export type PlanKind = 'on_failure' | 'fix_loop' | 'on_conflict';
export type TaskSlot = 'judge' | 'escalation' | 'auto_review';
export type ComponentKind =
  'chain' | 'node' | 'step' | 'task' | PlanKind | TaskSlot | 'on_base_changed' | 'steering';

/** Where a component sits: an item of a list, or the value of a key. */
export type Holder =
  | { type: 'list'; list: unknown[]; index: number }
  | { type: 'key'; obj: Obj; key: string }
  /** The tasks shorthand seen as step `main`: it has no place of its own. */
  | { type: 'shorthand'; owner: Obj };

export interface Located {
  path: string;
  kind: ComponentKind;
  value: Obj;
  holder: Holder;
  /** The node (chain or library) it belongs to, when it is in one; the node itself for a node. */
  node: Obj | null;
  /** For a library component, its section and name. */
  library?: { section: string; name: string };
}

const idOf = (v: unknown, fallback: string): string =>
  isObj(v) && typeof v.id === 'string' && v.id !== '' ? v.id : fallback;

function inList(list: unknown, id: string): { list: unknown[]; index: number; value: Obj } | null {
  if (!Array.isArray(list)) return null;
  const index = list.findIndex((x, i) => idOf(x, `#${i}`) === id);
  const value: unknown = list[index];
  return index >= 0 && isObj(value) ? { list, index, value } : null;
}

class Finder {
  constructor(private readonly node: Obj | null) {}

  private found(comp: string[], kind: ComponentKind, value: Obj, holder: Holder): Located {
    return { path: comp.join('.'), kind, value, holder, node: this.node ?? (kind === 'node' ? value : null) };
  }

  task(comp: string[], kind: 'task' | TaskSlot, v: Obj, holder: Holder, rest: string[]): Located | null {
    if (rest.length === 0) return this.found(comp, kind, v, holder);
    if (rest[0] === 'on_failure' && isObj(v.on_failure)) {
      return this.plan(
        [...comp, 'on_failure'],
        'on_failure',
        v.on_failure,
        { type: 'key', obj: v, key: 'on_failure' },
        rest.slice(1),
      );
    }
    return null;
  }

  step(comp: string[], v: Obj, holder: Holder, rest: string[]): Located | null {
    if (rest.length === 0) return this.found(comp, 'step', v, holder);
    const [head, ...more] = rest as [string, ...string[]];
    if (head === 'on_failure' && isObj(v.on_failure)) {
      return this.plan(
        [...comp, 'on_failure'],
        'on_failure',
        v.on_failure,
        { type: 'key', obj: v, key: 'on_failure' },
        more,
      );
    }
    const t = inList(v.tasks, head);
    return (
      t && this.task([...comp, head], 'task', t.value, { type: 'list', list: t.list, index: t.index }, more)
    );
  }

  /** The steps of a node or plan: `main` for the tasks shorthand, else a step by id. */
  children(comp: string[], owner: Obj, rest: string[]): Located | null {
    const [head, ...more] = rest as [string, ...string[]];
    if (head === 'main' && Array.isArray(owner.tasks)) {
      // The shorthand's step has no fields of its own; its tasks list is the owner's.
      const main: Obj = { id: 'main', tasks: owner.tasks };
      return this.step([...comp, 'main'], main, { type: 'shorthand', owner }, more);
    }
    const s = inList(owner.steps, head);
    return s && this.step([...comp, head], s.value, { type: 'list', list: s.list, index: s.index }, more);
  }

  plan(comp: string[], kind: PlanKind, v: Obj, holder: Holder, rest: string[]): Located | null {
    if (rest.length === 0) return this.found(comp, kind, v, holder);
    if (rest[0] === 'judge' && kind === 'fix_loop' && isObj(v.judge)) {
      return this.task(
        [...comp, 'judge'],
        'judge',
        v.judge,
        { type: 'key', obj: v, key: 'judge' },
        rest.slice(1),
      );
    }
    return this.children(comp, v, rest);
  }

  nodeBody(comp: string[], v: Obj, holder: Holder, rest: string[]): Located | null {
    if (rest.length === 0) return this.found(comp, 'node', v, holder);
    const [head, next, ...more] = rest as [string, ...string[]];
    const key = (obj: Obj, k: string): Holder => ({ type: 'key', obj, key: k });
    if ((head === 'on_failure' || head === 'fix_loop') && isObj(v[head])) {
      return this.plan([...comp, head], head, v[head], key(v, head), rest.slice(1));
    }
    if (head === 'escalation' && isObj(v.escalation)) {
      if (next === undefined) return null;
      if (idOf(v.escalation, 'escalate') !== next) return null;
      return this.task([...comp, head, next], 'escalation', v.escalation, key(v, head), more);
    }
    if (head === 'on_base_changed' && isObj(v.on_base_changed)) {
      const obc = v.on_base_changed;
      if (next === undefined) return this.found([...comp, head], 'on_base_changed', obc, key(v, head));
      if (next === 'on_conflict' && isObj(obc.on_conflict)) {
        return this.plan([...comp, head, next], 'on_conflict', obc.on_conflict, key(obc, next), more);
      }
      return null;
    }
    if (head === 'auto_review' && isObj(v.auto_review)) {
      return this.task([...comp, head], 'auto_review', v.auto_review, key(v, head), rest.slice(1));
    }
    return this.children(comp, v, rest);
  }
}

const split = (path: string): string[] => (path === '' ? [] : path.split('.'));

/** The component at `path` in a chain file (`""` is the chain itself), or null. */
export function locateInChain(chain: unknown, path: string): Located | null {
  if (!isObj(chain)) return null;
  const segs = split(path);
  if (segs.length === 0)
    return { path: '', kind: 'chain', value: chain, holder: { type: 'key', obj: {}, key: '' }, node: null };
  const n = inList(chain.nodes, segs[0]!);
  if (!n) return null;
  return new Finder(n.value).nodeBody(
    [segs[0]!],
    n.value,
    { type: 'list', list: n.list, index: n.index },
    segs.slice(1),
  );
}

/** The component at `path` in library.yaml (`nodes.<name>…`, `steps.<name>…`, `tasks.<name>…`, `steering.<name>`). */
export function locateInLibrary(library: unknown, path: string): Located | null {
  if (!isObj(library)) return null;
  const [section, name, ...rest] = split(path);
  if (section === undefined || name === undefined) return null;
  // Both come from a request's path: `tasks.constructor` or `__proto__.x` must find nothing, not
  // Object.prototype (which an op would then change for the whole process).
  const sec = own(library, section);
  const v = isObj(sec) ? own(sec, name) : undefined;
  if (!isObj(sec) || !isObj(v)) return null;
  const holder: Holder = { type: 'key', obj: sec, key: name };
  const comp = [section, name];
  const lib = { section, name };
  let found: Located | null = null;
  if (section === 'nodes') found = new Finder(v).nodeBody(comp, v, holder, rest);
  else if (section === 'steps') found = new Finder(null).step(comp, v, holder, rest);
  else if (section === 'tasks') found = new Finder(null).task(comp, 'task', v, holder, rest);
  else if (section === 'steering' && rest.length === 0)
    found = { path: comp.join('.'), kind: 'steering', value: v, holder, node: null };
  return found && (rest.length === 0 ? { ...found, library: lib } : found);
}

/** Locates or refuses with "nothing at path". */
export function mustLocate(doc: unknown, path: string, library: boolean): Located {
  const found = library ? locateInLibrary(doc, path) : locateInChain(doc, path);
  if (!found) throw new OpRefused(`nothing at path \`${path}\``);
  return found;
}

/** Takes a located component out of where it sits (the shorthand's step cannot be taken out alone). */
export function detach(l: Located): void {
  const h = l.holder;
  if (h.type === 'list') h.list.splice(h.index, 1);
  else if (h.type === 'key') delete h.obj[h.key];
  else delete h.owner.tasks;
}
