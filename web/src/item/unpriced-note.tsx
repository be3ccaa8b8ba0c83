import { useQuery } from '@tanstack/react-query';
import { itemSessionsQuery } from '../queries.js';

/**
 * Beside the item's spend: how many of its agent runs have no dollar figure (a CLI that tells no
 * usage, a model the price table lacks), so a low total is not read as a cheap item.
 */
export function UnpricedNote({ itemId }: { itemId: string }) {
  const sessions = useQuery(itemSessionsQuery(itemId));
  const n = (sessions.data?.sessions ?? []).filter(
    (s) => s.harness !== null && s.cost_usd === null && s.status !== 'running',
  ).length;
  if (n === 0) return null;
  return (
    <span className="unpriced" title="Runs with no dollar figure count nothing towards the spend or its cap">
      {` + ${n} unpriced run${n === 1 ? '' : 's'}`}
    </span>
  );
}
