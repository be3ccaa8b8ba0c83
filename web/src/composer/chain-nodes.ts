import type { ModelAgentTask, ModelNode, ModelStep } from '../../../src/contract/config/chain-model.js';
import type { ResolvedChainAnswer } from '../../../src/contract/templates.js';
import type { DryState } from './use-dry-run.js';

/** The nodes of a chain file as the server resolved it (`resolved` is typed loosely on the wire). */
export function chainNodes(answer: ResolvedChainAnswer | undefined): ModelNode[] {
  const nodes = answer?.resolved.nodes;
  return Array.isArray(nodes) ? (nodes as ModelNode[]) : [];
}

const agentsIn = (steps: readonly ModelStep[]): ModelAgentTask[] =>
  steps.flatMap((s) => s.tasks.flatMap((t) => (t.kind === 'agent' ? [t] : [])));

/**
 * The agents a node launches, whose model and effort a node override sets: its steps', its fix
 * loop's and judge, its escalation, a gate's reviewer.
 */
export function agentsOf(node: ModelNode): ModelAgentTask[] {
  if (node.kind === 'gate') return node.auto_review ? [node.auto_review] : [];
  const out = agentsIn(node.steps);
  if (node.fix_loop) {
    out.push(...agentsIn(node.fix_loop.steps));
    if (node.fix_loop.judge?.kind === 'agent') out.push(node.fix_loop.judge);
  }
  if (node.escalation?.kind === 'agent') out.push(node.escalation);
  return out;
}

/** How one node stands in the item as drafted. */
export type NodePlan =
  | { state: 'runs' }
  | { state: 'skipped'; by: 'you' }
  /** The walk passes it for another reason the dry run gave (an attached document). */
  | { state: 'skipped'; by: 'filing'; reason: string };

/**
 * Whether a node runs: skipped by the person's choice, else as the server's dry run says (which
 * knows what an attachment skips). Before any dry run, it runs; a dry run asked while the node was
 * still ticked is about that tick, not a reason of its own.
 */
export function planOf(id: string, skip: boolean, dry: DryState | null): NodePlan {
  if (skip) return { state: 'skipped', by: 'you' };
  if (dry?.asked.skip_nodes?.includes(id)) return { state: 'runs' };
  const reason = dry?.run?.would_file.nodes.find((n) => n.id === id)?.skipped ?? null;
  return reason === null ? { state: 'runs' } : { state: 'skipped', by: 'filing', reason };
}

/** Why a node cannot be skipped, or null when it can. */
export const noSkipReason = (node: ModelNode): string | null =>
  node.skippable === false ? 'its chain marks it skippable: false, so it always runs' : null;
