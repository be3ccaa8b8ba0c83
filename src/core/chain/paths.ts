import type { PathSeg } from '../config/tree.js';

/*
 * Canonical component paths: `node.step.task`, `node.main.task` for the tasks shorthand,
 * `node.on_failure.step.task`, `node.fix_loop.<step>.<task>`, `node.fix_loop.judge`,
 * `node.escalation.<id>`, `node.on_base_changed.on_conflict.<step>.<task>`, `gate.auto_review`.
 * These functions map a data path inside a file (`nodes.3.steps.0.tasks.1.prompt`) to the
 * component's canonical path and the field below it, so every problem names what a person sees.
 */

type Obj = Record<string | number, unknown>;
const at = (v: unknown, k: PathSeg): unknown => (v && typeof v === 'object' ? (v as Obj)[k] : undefined);
const idOf = (v: unknown, fallback: string): string => {
  const id = at(v, 'id');
  return typeof id === 'string' && id !== '' ? id : fallback;
};

export interface Described {
  path: string;
  field: string | null;
}

function done(comp: string[], rest: readonly PathSeg[]): Described {
  return { path: comp.join('.'), field: rest.length ? rest.join('.') : null };
}

function task(comp: string[], v: unknown, rest: readonly PathSeg[]): Described {
  if (rest[0] === 'on_failure') return plan([...comp, 'on_failure'], at(v, 'on_failure'), rest.slice(1));
  return done(comp, rest);
}

function step(comp: string[], v: unknown, rest: readonly PathSeg[]): Described {
  if (rest[0] === 'tasks' && typeof rest[1] === 'number') {
    const t = at(at(v, 'tasks'), rest[1]);
    return task([...comp, idOf(t, `#${rest[1]}`)], t, rest.slice(2));
  }
  if (rest[0] === 'on_failure') return plan([...comp, 'on_failure'], at(v, 'on_failure'), rest.slice(1));
  return done(comp, rest);
}

/** A recovery plan or fix loop: tasks shorthand (`main`) or steps. */
function plan(comp: string[], v: unknown, rest: readonly PathSeg[]): Described {
  if (rest[0] === 'tasks' && typeof rest[1] === 'number') {
    const t = at(at(v, 'tasks'), rest[1]);
    return task([...comp, 'main', idOf(t, `#${rest[1]}`)], t, rest.slice(2));
  }
  if (rest[0] === 'steps' && typeof rest[1] === 'number') {
    const s = at(at(v, 'steps'), rest[1]);
    return step([...comp, idOf(s, `#${rest[1]}`)], s, rest.slice(2));
  }
  if (rest[0] === 'judge') return task([...comp, 'judge'], at(v, 'judge'), rest.slice(1));
  return done(comp, rest);
}

export function describeNode(comp: string[], v: unknown, rest: readonly PathSeg[]): Described {
  const [head, next] = rest;
  if (head === 'tasks' || head === 'steps') return plan(comp, v, rest);
  if (head === 'on_failure' || head === 'fix_loop') return plan([...comp, head], at(v, head), rest.slice(1));
  if (head === 'escalation') {
    const e = at(v, 'escalation');
    return task([...comp, 'escalation', idOf(e, 'escalate')], e, rest.slice(1));
  }
  if (head === 'on_base_changed' && next === 'on_conflict') {
    return plan([...comp, 'on_base_changed', 'on_conflict'], at(at(v, head), next), rest.slice(2));
  }
  if (head === 'auto_review') return task([...comp, 'auto_review'], at(v, head), rest.slice(1));
  return done(comp, rest);
}

/** A data path in a chain file (or a resolved chain) → canonical path and field. */
export function describeChainPath(data: unknown, path: readonly PathSeg[]): Described {
  if (path[0] === 'nodes' && typeof path[1] === 'number') {
    const n = at(at(data, 'nodes'), path[1]);
    return describeNode([idOf(n, `#${path[1]}`)], n, path.slice(2));
  }
  return done([], path);
}

/** A data path in library.yaml → `tasks.<name>`, `nodes.<name>.<step>.<task>`, `steps.<name>.<task>`. */
export function describeLibraryPath(data: unknown, path: readonly PathSeg[]): Described {
  const [section, name] = path;
  if (typeof name !== 'string') return done([], path);
  const v = at(at(data, section!), name);
  const comp = [String(section), name];
  if (section === 'nodes') return describeNode(comp, v, path.slice(2));
  if (section === 'steps') return step(comp, v, path.slice(2));
  if (section === 'tasks') return task(comp, v, path.slice(2));
  return done(comp, path.slice(2));
}
