import type { ResolvedChainInput } from '../../contract/config/resolved-chain.js';

/*
 * The resolved chain as the rest of Jig reads it: `extends` expanded, the `tasks` shorthand turned
 * into a step `main`, and every node, step and task carrying its canonical `path`. This is what an
 * item freezes at intake and what `GET /api/templates/chains/{id}/resolved` answers.
 */

export type {
  ModelAgentTask,
  ModelExecNode,
  ModelFixLoop,
  ModelGateNode,
  ModelNode,
  ModelPlan,
  ModelStep,
  ModelTask,
  ResolvedChain,
} from '../../contract/config/chain-model.js';
import type {
  ModelAgentTask,
  ModelExecNode,
  ModelGateNode,
  ModelNode,
  ModelPlan,
  ModelStep,
  ModelTask,
  ResolvedChain,
} from '../../contract/config/chain-model.js';

type InputNode = ResolvedChainInput['nodes'][number];
type InputExec = Extract<InputNode, { kind: 'exec' }>;
type InputTask = NonNullable<InputExec['tasks']>[number];
type InputStep = NonNullable<InputExec['steps']>[number];
type InputPlan = NonNullable<InputExec['on_failure']>;

// A handler's tasks and steps (no `on_failure` of their own) are read as the general ones, whose
// extra keys are all optional.
function task(t: InputTask, path: string): ModelTask {
  const { on_failure, ...rest } = t;
  return on_failure
    ? { ...rest, path, on_failure: plan(on_failure, `${path}.on_failure`) }
    : { ...rest, path };
}

/** A plan, or a node's own work: `tasks` (one step `main`) or `steps`. */
function steps(
  holder: { tasks?: readonly InputTask[]; steps?: readonly InputStep[] },
  path: string,
): ModelStep[] {
  if (holder.tasks) {
    return [
      { id: 'main', path: `${path}.main`, tasks: holder.tasks.map((t) => task(t, `${path}.main.${t.id}`)) },
    ];
  }
  return (holder.steps ?? []).map((st): ModelStep => {
    const p = `${path}.${st.id}`;
    const { tasks, on_failure, ...rest } = st;
    const out: ModelStep = { ...rest, path: p, tasks: tasks.map((t) => task(t, `${p}.${t.id}`)) };
    if (on_failure) out.on_failure = plan(on_failure, `${p}.on_failure`);
    return out;
  });
}

function plan(holder: InputPlan, path: string): ModelPlan {
  return { path, steps: steps(holder, path) };
}

function agentOnly(t: ModelTask | undefined): ModelAgentTask | undefined {
  return t?.kind === 'agent' ? t : undefined;
}

/** The checked, merged chain → the model with `main` steps and paths. */
export function toModel(chain: ResolvedChainInput): ResolvedChain {
  const nodes = chain.nodes.map((n): ModelNode => {
    const path = n.id;
    if (n.kind === 'gate') {
      const { auto_review, ...rest } = n;
      const out: ModelGateNode = { ...rest, path };
      const review = auto_review ? agentOnly(task(auto_review, `${path}.auto_review`)) : undefined;
      if (review) out.auto_review = review;
      return out;
    }
    const { tasks: _tasks, steps: _steps, on_failure, fix_loop, escalation, on_base_changed, ...rest } = n;
    const out: ModelExecNode = { ...rest, path, steps: steps(n, path) };
    if (on_failure) out.on_failure = plan(on_failure, `${path}.on_failure`);
    if (fix_loop) {
      const { tasks: _t, steps: _s, judge, ...limits } = fix_loop;
      out.fix_loop = { ...limits, ...plan(fix_loop, `${path}.fix_loop`) };
      if (judge) out.fix_loop.judge = task(judge, `${path}.fix_loop.judge`);
    }
    if (escalation) out.escalation = task(escalation, `${path}.escalation.${escalation.id}`);
    if (on_base_changed) {
      const { on_conflict, ...obc } = on_base_changed;
      out.on_base_changed = on_conflict
        ? { ...obc, on_conflict: plan(on_conflict, `${path}.on_base_changed.on_conflict`) }
        : obc;
    }
    return out;
  });
  const out: ResolvedChain = { id: chain.id, nodes };
  if (chain.description !== undefined) out.description = chain.description;
  if (chain.policy !== undefined) out.policy = chain.policy;
  return out;
}
