import type { AnswerOf } from '../api.js';

type Node = AnswerOf<'getItemChain'>['nodes'][number];
type Step = Extract<Node, { kind: 'exec' }>['steps'][number];

const agentIn = (steps: readonly Step[]): boolean =>
  steps.some((s) => s.tasks.some((t) => t.kind === 'agent'));

/**
 * Whether any agent task runs in a chain (a node's steps or its fix loop): only then does a gate's
 * reject note reach an agent as its steer. The `manual` chain has none.
 */
export function hasAgentTask(nodes: readonly Node[]): boolean {
  return nodes.some((n) => n.kind === 'exec' && (agentIn(n.steps) || agentIn(n.fix_loop?.steps ?? [])));
}
