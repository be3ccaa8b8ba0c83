import type { PolicyFile } from '../../contract/config/policy.js';

export interface Sourced<T> {
  value: T;
  /** `loop`, `node`, `chain`, `defaults`, `maxima`, `loops` or `default`. */
  source: string;
}
export interface LoopLimits {
  key: string;
  attempts: Sourced<number>;
  wall_clock_s: Sourced<number>;
}

interface LoopChain {
  policy?: { max_attempts?: number; timeout_minutes?: number } | undefined;
  nodes: readonly unknown[];
}
type LoopNode = {
  id: string;
  kind: string;
  policy?: { max_attempts?: number; timeout_minutes?: number };
  fix_loop?: { max_attempts?: number };
};

/**
 * Fix-loop limits of one node, narrowest last: policy.yaml `default:`, `defaults.max_attempts`
 * / `timeout_minutes`, the `loops.<node>.fix_loop` entry, the chain's policy, the node's policy,
 * then the loop's own `max_attempts` (a wall clock has no loop layer); `maxima` clamps the result.
 * An item's own override is applied by the engine on top.
 */
export function loopLimits(chain: LoopChain, nodeId: string, policy: PolicyFile | null): LoopLimits | null {
  const node = chain.nodes.find((n) => (n as LoopNode).id === nodeId) as LoopNode | undefined;
  if (!node || node.kind !== 'exec' || !node.fix_loop) return null;
  const key = `${nodeId}.fix_loop`;
  let attempts: Sourced<number> = { value: policy?.default.attempts ?? 3, source: 'default' };
  let wall: Sourced<number> = { value: policy?.default.wall_clock_s ?? 3600, source: 'default' };
  const layer = (a: number | undefined, w: number | undefined, source: string): void => {
    if (a !== undefined) attempts = { value: a, source };
    if (w !== undefined) wall = { value: w, source };
  };
  const min = (m?: number) => (m === undefined ? undefined : m * 60);
  layer(policy?.defaults?.max_attempts, min(policy?.defaults?.timeout_minutes), 'defaults');
  const entry = policy?.loops[key];
  layer(entry?.attempts, entry?.wall_clock_s, 'loops');
  layer(chain.policy?.max_attempts, min(chain.policy?.timeout_minutes), 'chain');
  layer(node.policy?.max_attempts, min(node.policy?.timeout_minutes), 'node');
  layer(node.fix_loop.max_attempts, undefined, 'loop');
  const maxA = policy?.maxima?.max_attempts;
  if (maxA !== undefined && attempts.value > maxA) attempts = { value: maxA, source: 'maxima' };
  const maxW = min(policy?.maxima?.timeout_minutes);
  if (maxW !== undefined && wall.value > maxW) wall = { value: maxW, source: 'maxima' };
  return { key, attempts, wall_clock_s: wall };
}

/** Every fix loop of the given chains, keyed as policy.yaml `loops:` keys them. */
export function fixLoopKeys(chains: readonly LoopChain[]): Set<string> {
  const keys = new Set<string>();
  for (const c of chains) {
    for (const n of c.nodes as LoopNode[]) if (n.kind === 'exec' && n.fix_loop) keys.add(`${n.id}.fix_loop`);
  }
  return keys;
}
