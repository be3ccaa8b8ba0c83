import type { AnsweredOp, ItemDraftOp } from '../../../../src/contract/items/draft.js';
import type { ModelNode } from '../../../../src/contract/config/chain-model.js';

/** A sentence for an op of the draft, as the list of changes shows it. */
export function describeOp(op: ItemDraftOp): string {
  switch (op.op) {
    case 'add_node': {
      const n = op.node;
      const from =
        'extends' in n
          ? `library node ${n.extends}`
          : 'tasks' in n
            ? `library tasks ${n.tasks.map((t) => t.extends).join(', ')}`
            : `library steps ${n.steps.map((s) => s.extends).join(', ')}`;
      return `Add ${n.id} after ${op.after} (${from})`;
    }
    case 'remove_node':
      return `Remove ${op.node}`;
    case 'skip':
      return `Skip ${op.path}`;
    case 'override': {
      const set = { ...(op.task_config ?? {}), ...(op.policy ?? {}) };
      const parts = Object.entries(set).map(([k, v]) => `${k} ${String(v)}`);
      return `Override ${op.path}: ${parts.join(', ') || 'nothing'}`;
    }
  }
}

/** The op as a PUT takes it: the answer's `passed` mark is the server's, not part of the op. */
export function bare(op: AnsweredOp): ItemDraftOp {
  const { passed: _passed, ...rest } = op;
  return rest;
}

/**
 * The ids of the nodes a draft may still change: those after the item's current node (an op on
 * the node it is at, or one before, would be passed). With no current node, every node.
 */
export function editableNodes(nodes: readonly ModelNode[], current: string | null): Set<string> {
  const at = current === null ? -1 : nodes.findIndex((n) => n.id === current);
  return new Set(nodes.slice(at + 1).map((n) => n.id));
}

/** Where a node may be added: after the current node or any node after it. */
export function addPoints(nodes: readonly ModelNode[], current: string | null): string[] {
  const at =
    current === null
      ? 0
      : Math.max(
          0,
          nodes.findIndex((n) => n.id === current),
        );
  return nodes.slice(at).map((n) => n.id);
}

/** A free id for a node built from `base`: `base`, else `base_2`, `base_3`… */
export function freeId(base: string, nodes: readonly ModelNode[]): string {
  const taken = new Set(nodes.map((n) => n.id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}
