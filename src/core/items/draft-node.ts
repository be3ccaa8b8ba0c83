import { DEFAULT_HARNESS } from '../../contract/config/harnesses.js';
import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import type { AddedNode } from '../../contract/items/draft.js';
import { loadChain, type ChainContext } from '../chain/load-chain.js';
import type { ModelExecNode, ResolvedChain } from '../chain/model.js';
import { walkChain } from '../chain/walk.js';
import { toolPolicies } from '../policy/ratchet.js';

/*
 * The structural ops of an item draft: a node built from library components and put after another,
 * a node removed, a step or task skipped. A node is built the way a chain file's node is (extends
 * expanded, the `tasks` shorthand made a step `main`, paths), so the item runs it as it would run
 * the same node written in a chain.
 */

/** The harness an agent task launches on when it names none (as the agent runner picks it). */

/** What a forge task does when its node lands the merge request: such a node is never removed. */
const LANDS_MR = new Set(['mr.merge']);

/** A problem of the one-node chain said without its file and place, which the caller never wrote. */
const said = (p: Problem): string => `${[p.path, p.field].filter((s) => s !== '').join('.')}: ${p.message}`;

export type Built = { ok: true; node: ModelExecNode } | { ok: false; problem: string };

/**
 * Builds the node an `add_node` asks for from the library, as a one-node chain of the item's chain
 * id would load. A library node that is a gate is refused: an added node is always exec.
 */
export function buildNode(spec: AddedNode, chainId: string, library: ChainContext | null): Built {
  if (!library) return { ok: false, problem: 'the library is not loaded, so no node can be built from it' };
  const written =
    'extends' in spec
      ? { id: spec.id, extends: spec.extends }
      : 'tasks' in spec
        ? { id: spec.id, kind: 'exec', tasks: spec.tasks }
        : { id: spec.id, kind: 'exec', steps: spec.steps };
  // JSON is YAML, so the node goes through the chain loader exactly as a file's node would.
  const load = loadChain(chainId, JSON.stringify({ nodes: [written] }), library);
  const node = load.resolved?.nodes[0];
  if (!node) {
    const why = load.problems.slice(0, 3).map(said).join('; ');
    return {
      ok: false,
      problem: `the library cannot build node \`${spec.id}\`: ${why || 'it does not resolve'}`,
    };
  }
  if (node.kind !== 'exec')
    return {
      ok: false,
      problem: `\`${'extends' in spec ? spec.extends : spec.id}\` is a gate; add_node adds exec nodes only`,
    };
  return { ok: true, node };
}

/** The harnesses the agent tasks of a node launch on, each once, in the node's order. */
export function nodeHarnesses(node: ModelExecNode): string[] {
  const out: string[] = [];
  for (const v of walkChain({ nodes: [node] })) {
    if (v.kind !== 'task' || v.value.kind !== 'agent') continue;
    const h = typeof v.value.harness === 'string' ? v.value.harness : DEFAULT_HARNESS;
    if (!out.includes(h)) out.push(h);
  }
  return out;
}

/** An agent task of the node whose harness is outside the allowed_harnesses it runs under, or null. */
export function harnessProblem(
  chain: ResolvedChain,
  nodeId: string,
  policy: PolicyFile | null,
  repoPolicy?: ScopePolicy,
): string | null {
  const tools = toolPolicies(chain, policy, repoPolicy);
  for (const v of walkChain(chain)) {
    if (v.kind !== 'task' || v.value.kind !== 'agent' || v.path.split('.')[0] !== nodeId) continue;
    const h = typeof v.value.harness === 'string' ? v.value.harness : DEFAULT_HARNESS;
    const allowed = tools.get(v.path)?.allowed_harnesses ?? null;
    if (allowed && !allowed.includes(h))
      return `harness \`${h}\` of \`${v.path}\` is outside allowed_harnesses (${allowed.join(', ') || 'none'})`;
  }
  return null;
}

/** Why a node cannot be removed from the chain, or null. */
export function removeProblem(chain: ResolvedChain, nodeId: string): string | null {
  const node = chain.nodes.find((n) => n.id === nodeId);
  if (!node) return `no node \`${nodeId}\` in the item's chain`;
  if (node.kind === 'gate') return `\`${nodeId}\` is a gate; a gate cannot be removed`;
  if (node.skippable === false) return `\`${nodeId}\` is not skippable`;
  const lands = walkChain({ nodes: [node] }).some(
    (v) => v.kind === 'task' && v.value.kind === 'forge' && LANDS_MR.has(String(v.value.target)),
  );
  if (lands) return `\`${nodeId}\` lands the merge request`;
  for (const n of chain.nodes) {
    if (n.kind === 'gate' && n.reject_to === nodeId) return `gate \`${n.id}\` rejects to \`${nodeId}\``;
    if (n.kind === 'exec' && n.on_base_changed?.restart_from === nodeId && n.id !== nodeId)
      return `\`${n.id}\` restarts from \`${nodeId}\` when its base changes`;
  }
  return null;
}

/** Why a path cannot be skipped, or null: a step or task of a node's own steps, skippable all the way up. */
export function skipProblem(chain: ResolvedChain, path: string): string | null {
  const v = walkChain(chain).find((x) => x.path === path);
  if (!v) return `\`${path}\` names nothing in the item's chain`;
  if (v.kind === 'node') return `\`${path}\` is a node: use remove_node`;
  if (v.handler !== null || v.slot !== null)
    return `\`${path}\` is a handler's or slot's; only a step or task of a node's own steps can be skipped`;
  for (let p: typeof v | null = v; p; p = p.parent) {
    if (p.value.skippable === false)
      return p === v
        ? `\`${path}\` is not skippable`
        : `\`${path}\` is inside \`${p.path}\`, which is not skippable`;
  }
  return null;
}
