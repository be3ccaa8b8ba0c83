import { useQueries } from '@tanstack/react-query';
import type { ResolvedChainAnswer } from '../../../src/contract/templates.js';
import type { Item } from '../api.js';
import { resolvedChainQuery } from '../queries.js';

/** The node ids of a resolved chain, read without trusting the shape of `resolved` (typed unknown). */
function nodeIds(answer: ResolvedChainAnswer): string[] {
  const nodes = answer.resolved.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.flatMap((n: unknown) =>
    typeof n === 'object' && n !== null && 'id' in n && typeof n.id === 'string' ? [n.id] : [],
  );
}

/**
 * The node ids of each chain the board shows, one request per chain (a handful), cached. They are
 * the chain file's nodes: an item whose own chain an item draft revised may differ, which is why the
 * ticks are a glance and the item page's graph is the truth.
 */
export function useChainNodes(chains: readonly string[]): Map<string, string[]> {
  const answers = useQueries({
    queries: chains.map((id) => ({
      ...resolvedChainQuery(id),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const out = new Map<string, string[]>();
  chains.forEach((id, i) => {
    const data = answers[i]?.data;
    if (data) out.set(id, nodeIds(data));
  });
  return out;
}

/** One mark per node: passed, where the item is (and how it stands there), not reached. */
export function Ticks({ item, nodes }: { item: Item; nodes: readonly string[] | undefined }) {
  if (!nodes || nodes.length === 0) return null;
  const ended = item.status === 'completed';
  const at = item.current_node === null ? -1 : nodes.indexOf(item.current_node);
  const here =
    item.status === 'stopped'
      ? item.stop?.kind === 'gate'
        ? 'waiting'
        : 'stopped'
      : item.status === 'running' || item.status === 'waiting'
        ? 'running'
        : 'paused';
  return (
    <span
      className="ticks"
      aria-label={`${at >= 0 ? `at node ${at + 1} of ${nodes.length}` : `${nodes.length} nodes`}`}
    >
      {nodes.map((n, i) => {
        const state = ended || (at >= 0 && i < at) ? 'done' : i === at ? here : 'pending';
        return <span key={n} className={`tick tick-${state}`} title={`${n}: ${state}`} />;
      })}
    </span>
  );
}
