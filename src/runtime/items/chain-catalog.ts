import { JigError } from '../../contract/errors.js';
import type { ResolvedChain } from '../../contract/config/chain-model.js';

/** What intake needs to know of a chain: that it resolves, and its nodes in order. */
export interface ChainSummary {
  id: string;
  /** The chain as it runs, for what filing decides before the walk (filedSkip). */
  definition: ResolvedChain;
  nodes: { id: string; kind: 'exec' | 'gate'; skippable: boolean }[];
}

export type ChainLookup =
  | { ok: true; chain: ChainSummary }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'unresolved'; detail: string };

export interface ChainCatalog {
  lookup(id: string): ChainLookup;
}

/** The chain of that id as it runs, or the refusal a request naming it gets (422). */
export function requireChain(catalog: ChainCatalog, id: string): ChainSummary {
  const found = catalog.lookup(id);
  if (found.ok) return found.chain;
  if (found.reason === 'unknown') throw new JigError('chain_unknown', { chain: id });
  throw new JigError('chain_unresolved', { chain: id, reason: found.detail });
}
