import type { ModelExecNode, ModelPlan, ModelTask } from './model.js';

/** Every task of the node's own steps, by path. */
export function nodeTasks(node: ModelExecNode): Map<string, ModelTask> {
  return new Map(node.steps.flatMap((s) => s.tasks.map((t) => [t.path, t] as const)));
}

/** The recovery plan for a failed task: its own `on_failure`, else its step's, else the node's. */
export function nearestHandler(node: ModelExecNode, taskPath: string): ModelPlan | null {
  for (const step of node.steps) {
    const task = step.tasks.find((t) => t.path === taskPath);
    if (task) return task.on_failure ?? step.on_failure ?? node.on_failure ?? null;
  }
  return node.on_failure ?? null;
}

export function planAt(node: ModelExecNode, path: string | null | undefined): ModelPlan | null {
  if (!path) return null;
  const all = [
    node.on_failure,
    ...node.steps.flatMap((s) => [s.on_failure, ...s.tasks.map((t) => t.on_failure)]),
  ];
  return all.find((p) => p?.path === path) ?? null;
}
