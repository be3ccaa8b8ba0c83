import type { ModelAgentTask, ModelNode, ModelPlan, ModelStep, ModelTask } from './model.js';

/*
 * Every agent task a node may launch, wherever it sits: its steps and their recovery plans, the
 * node's recovery, fix loop and judge, its escalation, a rebase conflict plan, a gate's reviewer.
 */

function fromTask(t: ModelTask | undefined, out: ModelAgentTask[]): void {
  if (!t) return;
  if (t.kind === 'agent') out.push(t);
  fromPlan(t.on_failure, out);
}

function fromSteps(steps: readonly ModelStep[], out: ModelAgentTask[]): void {
  for (const s of steps) {
    for (const t of s.tasks) fromTask(t, out);
    fromPlan(s.on_failure, out);
  }
}

function fromPlan(p: ModelPlan | undefined, out: ModelAgentTask[]): void {
  if (p) fromSteps(p.steps, out);
}

export function agentTasksOf(node: ModelNode): ModelAgentTask[] {
  const out: ModelAgentTask[] = [];
  if (node.kind === 'gate') {
    if (node.auto_review) out.push(node.auto_review);
    return out;
  }
  fromSteps(node.steps, out);
  fromPlan(node.on_failure, out);
  if (node.fix_loop) {
    fromSteps(node.fix_loop.steps, out);
    fromTask(node.fix_loop.judge, out);
  }
  fromTask(node.escalation, out);
  fromPlan(node.on_base_changed?.on_conflict, out);
  return out;
}
