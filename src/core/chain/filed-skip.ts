import type { ModelNode } from '../../contract/config/chain-model.js';

/** Why the walk passes a node it enters without running it, and the attached documents it stands on. */
export interface FiledSkip {
  note: string;
  /** Attachments that take the place of what the node would have written. */
  documents: string[];
}

/**
 * What the item was filed with decides some nodes before they run: a node named in `skip_nodes`,
 * a node whose only documents a person attached (an agent would write a spec the person already
 * wrote), and a gate that shows an attached document (the person wrote what it asks them to
 * approve). A node that is not skippable always runs; `skip_nodes` never names one (intake checks).
 */
export function filedSkip(
  node: ModelNode,
  skipNodes: readonly string[],
  attached: readonly string[],
): FiledSkip | null {
  if (skipNodes.includes(node.id)) return { note: 'filed with skip_nodes', documents: [] };
  if (node.skippable === false) return null;
  if (node.kind === 'gate') {
    const kind = node.artifact;
    return kind && attached.includes(kind)
      ? { note: `the ${kind} was attached by a person`, documents: [] }
      : null;
  }
  // Only a node that does nothing but write attached documents: one that also tests or commits runs.
  const produced = new Set<string>();
  for (const step of node.steps) {
    if (step.skippable === false) return null;
    for (const task of step.tasks) {
      if (task.kind !== 'agent' || typeof task.produces !== 'string') return null;
      if (!attached.includes(task.produces)) return null;
      produced.add(task.produces);
    }
  }
  const kinds = [...produced];
  if (kinds.length === 0) return null;
  return {
    note: `the ${kinds.join(' and ')} ${kinds.length > 1 ? 'were' : 'was'} attached when filed`,
    documents: kinds,
  };
}
