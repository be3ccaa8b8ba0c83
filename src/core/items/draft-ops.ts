import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import { ResolvedChain as ResolvedChainSchema } from '../../contract/config/chain-model.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ItemDraftOp, ItemDraftProblem } from '../../contract/items/draft.js';
import type { Walk } from '../../contract/walk.js';
import type { ChainContext } from '../chain/load-chain.js';
import type { ModelExecNode, ResolvedChain } from '../chain/model.js';
import { buildNode, harnessProblem, nodeHarnesses, removeProblem, skipProblem } from './draft-node.js';
import { applyOverride, overrideProblem } from './draft-override.js';

/*
 * An item draft's ops laid over the item's own chain, pure: which ops the item has gone past, each
 * other op's problem, and the chain with every op applied that is neither (spec drafts.md "Item
 * drafts"). Ops apply in order, each checked against the chain the ops before it made, so a node
 * added by one op can be followed or overridden by a later one.
 */

export interface DraftInput {
  /** The item's chain as it runs (`chain_definition`). */
  chain: ResolvedChain;
  /** Where the item's walk is; null before its first start. */
  walk: Walk | null;
  ops: readonly ItemDraftOp[];
  /** The policy the item runs under (its snapshot). */
  policy: PolicyFile | null;
  /** The repo's own `policy:` layer, which narrows harnesses and tools as a launch sees them. */
  repoPolicy?: ScopePolicy | undefined;
  /** The running library, to build added nodes; null when none is loaded. */
  library: ChainContext | null;
}

export interface DraftOutcome {
  /** Per op, whether the item has reached what it acts on (such an op is not applied). */
  passed: boolean[];
  problems: ItemDraftProblem[];
  /** The chain with every op applied that is neither passed nor a problem. */
  chain: ResolvedChain;
  /** Each added node that applied, with the harnesses its agent tasks launch on. */
  added: { op: number; node: ModelExecNode; harnesses: string[] }[];
  /** Each skip that applied: the path and the node it is in. */
  skips: { op: number; path: string; node: string }[];
  /** What changed in the chain; all empty for a draft of only skips. */
  revised: { added: string[]; removed: string[]; overridden: string[] };
}

const nodeOfPath = (path: string): string => path.split('.')[0] ?? path;

/**
 * Whether the walk has reached a node of the item's chain as it stands: the node it is at, or one
 * before it. A node the chain does not have (one an earlier op adds) is not reached.
 */
export function reached(chain: ResolvedChain, walk: Walk | null, nodeId: string): boolean {
  if (walk === null) return false;
  const i = chain.nodes.findIndex((n) => n.id === nodeId);
  return i >= 0 && i <= walk.node;
}

/** Whether the item has reached what the op acts on (for `add_node`, gone past the node it follows). */
export function opPassed(chain: ResolvedChain, walk: Walk | null, op: ItemDraftOp): boolean {
  switch (op.op) {
    case 'override':
    case 'skip':
      return reached(chain, walk, nodeOfPath(op.path));
    case 'remove_node':
      return reached(chain, walk, op.node);
    case 'add_node': {
      const i = chain.nodes.findIndex((n) => n.id === op.after);
      return walk !== null && i >= 0 && i < walk.node;
    }
  }
}

/** A checked op: `apply` changes the working chain, `record` notes it once the chain still parses. */
type Step = { problem: string } | { apply: () => void; record: () => void };

/** Checks one op against the chain as the earlier ops left it; `applied` mutates `work`. */
function stepOf(
  op: ItemDraftOp,
  index: number,
  work: ResolvedChain,
  input: DraftInput,
  out: DraftOutcome,
): Step {
  switch (op.op) {
    case 'override': {
      const problem = overrideProblem(op, work, input.policy, input.repoPolicy);
      if (problem) return { problem };
      return {
        apply: () => applyOverride(op, work),
        record: () => out.revised.overridden.push(op.path),
      };
    }
    case 'remove_node': {
      const problem = removeProblem(work, op.node);
      if (problem) return { problem };
      return {
        apply: () => (work.nodes = work.nodes.filter((n) => n.id !== op.node)),
        record: () => out.revised.removed.push(op.node),
      };
    }
    case 'skip': {
      const problem = skipProblem(work, op.path);
      if (problem) return { problem };
      return {
        apply: () => undefined,
        record: () => out.skips.push({ op: index, path: op.path, node: nodeOfPath(op.path) }),
      };
    }
    case 'add_node': {
      const at = work.nodes.findIndex((n) => n.id === op.after);
      if (at < 0) return { problem: `no node \`${op.after}\` in the item's chain to follow` };
      if (work.nodes.some((n) => n.id === op.node.id))
        return { problem: `a node \`${op.node.id}\` is already in the item's chain` };
      const built = buildNode(op.node, work.id, input.library);
      if (!built.ok) return { problem: built.problem };
      const trial = {
        ...work,
        nodes: [...work.nodes.slice(0, at + 1), built.node, ...work.nodes.slice(at + 1)],
      };
      const problem = harnessProblem(trial, built.node.id, input.policy, input.repoPolicy);
      if (problem) return { problem };
      return {
        apply: () => (work.nodes = trial.nodes),
        record: () => {
          out.added.push({ op: index, node: built.node, harnesses: nodeHarnesses(built.node) });
          out.revised.added.push(built.node.id);
        },
      };
    }
  }
}

export function reviseChain(input: DraftInput): DraftOutcome {
  const work: ResolvedChain = structuredClone(input.chain);
  const out: DraftOutcome = {
    passed: input.ops.map((op) => opPassed(input.chain, input.walk, op)),
    problems: [],
    chain: work,
    added: [],
    skips: [],
    revised: { added: [], removed: [], overridden: [] },
  };
  input.ops.forEach((op, i) => {
    if (out.passed[i]) return;
    const step = stepOf(op, i, work, input, out);
    if ('problem' in step) {
      out.problems.push({ op: i, message: step.problem });
      return;
    }
    const before = structuredClone(work);
    step.apply();
    // The frozen chain is read back with its schema: a revision it would refuse is never stored.
    const check = ResolvedChainSchema.safeParse(work);
    if (check.success) return step.record();
    Object.assign(work, before);
    const issue = check.error.issues[0];
    out.problems.push({
      op: i,
      message:
        `the revised chain would not be valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    });
  });
  return out;
}
