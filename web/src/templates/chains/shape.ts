import type { Problem, Result } from './draft-api.js';

/*
 * What the editor draws, read from the result object: the resolved chain with `sources` when it
 * resolves, else the file as written (a chain with a problem does not resolve, and the editor must
 * still show it to fix it). Both give nodes, their steps and tasks, and each one's fields.
 */

export interface Field {
  value: unknown;
  source: string;
}
export interface Part {
  path: string;
  id: string;
  level: 'node' | 'step' | 'task';
  extends: string | null;
  fields: Record<string, Field>;
  /** Brought by a library node (`nodes.x`), not written in the file: ops on it are refused. */
  origin?: string | null;
}
export interface TaskPart extends Part {
  level: 'task';
  kind: string | null;
}
/** A slot a node's task fills: a fix loop's judge, an exec node's escalation, a gate's auto review. */
export type SlotName = 'judge' | 'escalation' | 'auto_review';
export interface SlotPart extends TaskPart {
  slot: SlotName;
}
/** A node's handler: its own steps and tasks, run only as part of it. */
export interface HandlerPart {
  kind: HandlerKind;
  path: string;
  steps: StepPart[];
}
export type HandlerKind = 'on_failure' | 'fix_loop' | 'on_conflict';
export interface StepPart extends Part {
  level: 'step';
  tasks: TaskPart[];
}
export interface NodePart extends Part {
  level: 'node';
  kind: 'exec' | 'gate';
  steps: StepPart[];
  handlers: string[];
  /** The contents of each handler the node has (own or inherited), in `handlers` order. */
  handlerParts: HandlerPart[];
  slots: SlotPart[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Keys that are structure, drawn as parts or handlers rather than edited as values. */
const STRUCTURE = new Set([
  'id',
  'path',
  'steps',
  'tasks',
  'on_failure',
  'fix_loop',
  'escalation',
  'on_base_changed',
  'auto_review',
  'judge',
  'on_conflict',
]);

/** A written component's own scalar keys, flattened one level (`policy.budget_usd`), all from the chain. */
function written(o: Obj): Record<string, Field> {
  const out: Record<string, Field> = {};
  for (const [k, v] of Object.entries(o)) {
    if (STRUCTURE.has(k)) continue;
    if (isObj(v))
      for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = { value: v2, source: 'chain' };
    else out[k] = { value: v, source: 'chain' };
  }
  return out;
}

function handlersOf(n: Obj): string[] {
  const h = ['on_failure', 'fix_loop'].filter((k) => n[k] !== undefined && n[k] !== null);
  const obc = n.on_base_changed;
  if (isObj(obc) && obc.on_conflict) h.push('on_conflict');
  return h;
}

function fieldsAt(sources: Result['sources'], path: string, fallback: Obj): Record<string, Field> {
  const own = sources?.[path];
  if (!own) return written(fallback);
  const out: Record<string, Field> = {};
  for (const [k, v] of Object.entries(own))
    if (!STRUCTURE.has(k)) out[k] = { value: v.value, source: v.source };
  return out;
}

function stepsOf(n: Obj): Obj[] {
  if (Array.isArray(n.steps)) return list(n.steps);
  if (Array.isArray(n.tasks)) return [{ id: 'main', tasks: n.tasks }];
  return [];
}

/** The nodes to draw, in walk order, from the resolved chain when there is one, else the written file. */
export function chainParts(result: Result, file: string): NodePart[] {
  const resolved = isObj(result.resolved) ? list(result.resolved.nodes) : null;
  const model = result.model[file];
  const nodes = resolved ?? (isObj(model) ? list(model.nodes) : []);
  const sources = resolved ? result.sources : null;
  return nodes.map((n) => {
    const id = text(n.id) ?? '?';
    const handlers = handlersOf(n);
    return {
      path: id,
      id,
      level: 'node',
      kind: n.kind === 'gate' ? 'gate' : 'exec',
      extends: text(n.extends),
      fields: fieldsAt(sources, id, n),
      steps: stepParts(sources, n, id),
      handlers,
      handlerParts: handlers.map((k): HandlerPart => {
        const path = k === 'on_conflict' ? `${id}.on_base_changed.on_conflict` : `${id}.${k}`;
        const holder = k === 'on_conflict' && isObj(n.on_base_changed) ? n.on_base_changed.on_conflict : n[k];
        return { kind: k as HandlerKind, path, steps: stepParts(sources, isObj(holder) ? holder : {}, path) };
      }),
      slots: slotsOf(sources, n, id),
    };
  });
}

/** The steps of a node or handler (the `tasks:` shorthand is step `main`), with their tasks. */
function stepParts(sources: Result['sources'], holder: Obj, path: string): StepPart[] {
  return stepsOf(holder).map((s): StepPart => {
    const sid = text(s.id) ?? '?';
    const spath = text(s.path) ?? `${path}.${sid}`;
    return {
      path: spath,
      id: sid,
      level: 'step',
      extends: text(s.extends),
      origin: originOf(sources, spath),
      fields: fieldsAt(sources, spath, s),
      tasks: list(s.tasks).map((t) => taskPart(sources, t, text(t.path) ?? `${spath}.${text(t.id) ?? '?'}`)),
    };
  });
}

function taskPart(sources: Result['sources'], t: Obj, path: string): TaskPart {
  return {
    path,
    id: text(t.id) ?? '?',
    level: 'task',
    extends: text(t.extends),
    origin: originOf(sources, path),
    kind: text(t.kind),
    fields: fieldsAt(sources, path, t),
  };
}

/** The slot tasks a node holds, at the paths the server's walk gives them. */
function slotsOf(sources: Result['sources'], n: Obj, id: string): SlotPart[] {
  const out: SlotPart[] = [];
  const judge = isObj(n.fix_loop) ? n.fix_loop.judge : undefined;
  if (isObj(judge)) out.push({ ...taskPart(sources, judge, `${id}.fix_loop.judge`), slot: 'judge' });
  if (isObj(n.escalation)) {
    const path = `${id}.escalation.${text(n.escalation.id) ?? 'escalate'}`;
    out.push({ ...taskPart(sources, n.escalation, path), slot: 'escalation' });
  }
  if (isObj(n.auto_review))
    out.push({ ...taskPart(sources, n.auto_review, `${id}.auto_review`), slot: 'auto_review' });
  return out;
}

/** The chain's own keys as written (description, policy, …): it has no `sources` row of its own. */
export function chainFields(result: Result, file: string): Record<string, Field> {
  const model = result.model[file];
  if (!isObj(model)) return {};
  const { nodes: _nodes, ...own } = model;
  return written(own);
}

/** The library component that brought a step or task, when the file does not hold it itself. */
function originOf(sources: Result['sources'], path: string): string | null {
  const source = sources?.[path]?.id?.source;
  return source?.startsWith('library:') ? source.slice('library:'.length) : null;
}

/** The problems at a path exactly (`field` null for the component itself). */
export const problemsAt = (problems: readonly Problem[], path: string) =>
  problems.filter((p) => p.path === path);

/** The problems anywhere in a node: its own and its steps', tasks' and handlers'. */
export const problemsIn = (problems: readonly Problem[], node: string) =>
  problems.filter((p) => p.path === node || (p.path ?? '').startsWith(`${node}.`));

/** "chain", "library:nodes.x", "policy", "default" as a person reads it. */
export function sourceLabel(source: string): string {
  if (source === 'chain') return 'set here';
  if (source.startsWith('library:')) return `from library ${source.slice('library:'.length)}`;
  if (source === 'policy') return 'from policy';
  return 'default';
}
