import type { PathSeg } from '../config/tree.js';

/*
 * Every node, step and task of a (merged) chain, with its canonical path and its data path, in
 * chain order. Checks, sources and policy layering all iterate this one list.
 */

export type Obj = Record<string, unknown>;
export type Handler = 'on_failure' | 'fix_loop' | 'on_conflict';
export type Slot = 'judge' | 'escalation' | 'auto_review';

export interface Visit {
  kind: 'node' | 'step' | 'task';
  path: string;
  dataPath: PathSeg[];
  value: Obj;
  nodeIndex: number;
  /** The handler this component sits in, if any. */
  handler: Handler | null;
  slot: Slot | null;
  /** The step made up for the `tasks` shorthand (`main`): it has no place of its own in the file. */
  synthetic: boolean;
  parent: Visit | null;
}

const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const idOf = (v: Obj, fallback: string): string => (typeof v.id === 'string' ? v.id : fallback);

export function walkChain(chain: unknown): Visit[] {
  const out: Visit[] = [];
  const nodes = arr(obj(chain)?.nodes);
  nodes.forEach((n, i) => {
    const node = obj(n);
    if (!node) return;
    const v: Visit = {
      kind: 'node',
      path: idOf(node, `#${i}`),
      dataPath: ['nodes', i],
      value: node,
      nodeIndex: i,
      handler: null,
      slot: null,
      synthetic: false,
      parent: null,
    };
    out.push(v);
    walkPlanLike(out, v, node, v.path, v.dataPath, null);
    for (const h of ['on_failure', 'fix_loop'] as const) {
      const p = obj(node[h]);
      if (p) walkPlanLike(out, v, p, `${v.path}.${h}`, [...v.dataPath, h], h);
    }
    const judge = obj(obj(node.fix_loop)?.judge);
    if (judge)
      task(
        out,
        v,
        judge,
        `${v.path}.fix_loop.judge`,
        [...v.dataPath, 'fix_loop', 'judge'],
        'fix_loop',
        'judge',
      );
    const esc = obj(node.escalation);
    if (esc)
      task(
        out,
        v,
        esc,
        `${v.path}.escalation.${idOf(esc, 'escalate')}`,
        [...v.dataPath, 'escalation'],
        null,
        'escalation',
      );
    const conflict = obj(obj(node.on_base_changed)?.on_conflict);
    if (conflict) {
      walkPlanLike(
        out,
        v,
        conflict,
        `${v.path}.on_base_changed.on_conflict`,
        [...v.dataPath, 'on_base_changed', 'on_conflict'],
        'on_conflict',
      );
    }
    const review = obj(node.auto_review);
    if (review)
      task(out, v, review, `${v.path}.auto_review`, [...v.dataPath, 'auto_review'], null, 'auto_review');
  });
  return out;
}

function base(parent: Visit, handler: Handler | null): Pick<Visit, 'nodeIndex' | 'handler' | 'parent'> {
  return { nodeIndex: parent.nodeIndex, handler, parent };
}

function walkPlanLike(
  out: Visit[],
  parent: Visit,
  holder: Obj,
  path: string,
  dataPath: PathSeg[],
  handler: Handler | null,
): void {
  if (Array.isArray(holder.tasks)) {
    const s: Visit = {
      kind: 'step',
      path: `${path}.main`,
      dataPath,
      value: { id: 'main', tasks: holder.tasks },
      slot: null,
      synthetic: true,
      ...base(parent, handler),
    };
    out.push(s);
    arr(holder.tasks).forEach((t, j) => {
      const tv = obj(t);
      if (tv) task(out, s, tv, `${s.path}.${idOf(tv, `#${j}`)}`, [...dataPath, 'tasks', j], handler, null);
    });
  }
  arr(holder.steps).forEach((st, i) => {
    const sv = obj(st);
    if (!sv) return;
    const s: Visit = {
      kind: 'step',
      path: `${path}.${idOf(sv, `#${i}`)}`,
      dataPath: [...dataPath, 'steps', i],
      value: sv,
      slot: null,
      synthetic: false,
      ...base(parent, handler),
    };
    out.push(s);
    arr(sv.tasks).forEach((t, j) => {
      const tv = obj(t);
      if (tv) task(out, s, tv, `${s.path}.${idOf(tv, `#${j}`)}`, [...s.dataPath, 'tasks', j], handler, null);
    });
    const rec = obj(sv.on_failure);
    if (rec) walkPlanLike(out, s, rec, `${s.path}.on_failure`, [...s.dataPath, 'on_failure'], 'on_failure');
  });
}

function task(
  out: Visit[],
  parent: Visit,
  value: Obj,
  path: string,
  dataPath: PathSeg[],
  handler: Handler | null,
  slot: Slot | null,
): void {
  const t: Visit = { kind: 'task', path, dataPath, value, slot, synthetic: false, ...base(parent, handler) };
  out.push(t);
  const rec = obj(value.on_failure);
  if (rec) walkPlanLike(out, t, rec, `${path}.on_failure`, [...dataPath, 'on_failure'], 'on_failure');
}

/** The node a visit belongs to. */
export function nodeOf(v: Visit): Visit {
  let n = v;
  while (n.parent) n = n.parent;
  return n;
}
