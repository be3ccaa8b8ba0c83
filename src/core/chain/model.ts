import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { ResolvedChainInput } from '../../contract/config/resolved-chain.js';

/*
 * The resolved chain as the rest of Jig reads it: `extends` expanded, the `tasks` shorthand turned
 * into a step `main`, and every node, step and task carrying its canonical `path`. This is what an
 * item freezes at intake and what `GET /api/templates/chains/{id}/resolved` answers.
 */

type Obj = Record<string, unknown>;

export type ModelTask = Obj & { id: string; kind: string; path: string; on_failure?: ModelPlan };
export interface ModelStep {
  id: string;
  path: string;
  tasks: ModelTask[];
  on_failure?: ModelPlan;
  read_only?: boolean;
  policy?: ScopePolicy;
  [key: string]: unknown;
}
export interface ModelPlan {
  path: string;
  steps: ModelStep[];
}
export interface ModelFixLoop extends ModelPlan {
  judge?: ModelTask;
  max_attempts?: number;
}
export interface ModelExecNode {
  id: string;
  kind: 'exec';
  path: string;
  steps: ModelStep[];
  on_failure?: ModelPlan;
  fix_loop?: ModelFixLoop;
  escalation?: ModelTask;
  on_base_changed?: { restart_from?: string; on_conflict?: ModelPlan };
  policy?: ScopePolicy;
  [key: string]: unknown;
}
export interface ModelGateNode {
  id: string;
  kind: 'gate';
  path: string;
  auto_review?: ModelTask;
  policy?: ScopePolicy;
  [key: string]: unknown;
}
export type ModelNode = ModelExecNode | ModelGateNode;
export interface ResolvedChain {
  id: string;
  description?: string;
  policy?: ScopePolicy;
  nodes: ModelNode[];
}

const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

function task(t: Obj, path: string): ModelTask {
  const out: ModelTask = { ...(t as ModelTask), path };
  const rec = obj(t.on_failure);
  if (rec) out.on_failure = plan(rec, `${path}.on_failure`);
  return out;
}

function steps(holder: Obj, path: string): ModelStep[] {
  if (Array.isArray(holder.tasks)) {
    return [
      {
        id: 'main',
        path: `${path}.main`,
        tasks: (holder.tasks as Obj[]).map((t) => task(t, `${path}.main.${String(t.id)}`)),
      },
    ];
  }
  return ((holder.steps as Obj[] | undefined) ?? []).map((s) => {
    const p = `${path}.${String(s.id)}`;
    const out: ModelStep = {
      ...s,
      id: String(s.id),
      path: p,
      tasks: ((s.tasks as Obj[] | undefined) ?? []).map((t) => task(t, `${p}.${String(t.id)}`)),
    };
    const rec = obj(s.on_failure);
    if (rec) out.on_failure = plan(rec, `${p}.on_failure`);
    return out;
  });
}

function plan(holder: Obj, path: string): ModelPlan {
  return { path, steps: steps(holder, path) };
}

/** The checked, merged chain → the model with `main` steps and paths. */
export function toModel(chain: ResolvedChainInput): ResolvedChain {
  const nodes = chain.nodes.map((n): ModelNode => {
    const x = n as unknown as Obj;
    const path = n.id;
    if (n.kind === 'gate') {
      const out: ModelGateNode = { ...x, id: n.id, kind: 'gate', path };
      const review = obj(x.auto_review);
      if (review) out.auto_review = task(review, `${path}.auto_review`);
      return out;
    }
    const { tasks: _tasks, ...rest } = x;
    const out: ModelExecNode = { ...rest, id: n.id, kind: 'exec', path, steps: steps(x, path) };
    const rec = obj(x.on_failure);
    if (rec) out.on_failure = plan(rec, `${path}.on_failure`);
    const loop = obj(x.fix_loop);
    if (loop) {
      const { tasks: _t, steps: _s, judge, ...limits } = loop;
      out.fix_loop = { ...limits, ...plan(loop, `${path}.fix_loop`) };
      const j = obj(judge);
      if (j) out.fix_loop.judge = task(j, `${path}.fix_loop.judge`);
    }
    const esc = obj(x.escalation);
    if (esc) out.escalation = task(esc, `${path}.escalation.${String(esc.id)}`);
    const obc = obj(x.on_base_changed);
    if (obc) {
      const c = obj(obc.on_conflict);
      out.on_base_changed = { ...(obc as { restart_from?: string }) };
      if (c) out.on_base_changed.on_conflict = plan(c, `${path}.on_base_changed.on_conflict`);
    }
    return out;
  });
  const out: ResolvedChain = { id: chain.id, nodes };
  if (chain.description !== undefined) out.description = chain.description;
  if (chain.policy !== undefined) out.policy = chain.policy;
  return out;
}
