import { JigError } from '../../contract/errors.js';
import type { ResolvedChain } from '../../contract/config/chain-model.js';
import { didYouMean } from '../../core/config/suggest.js';

/** What intake needs to know of a chain: that it resolves, and its nodes in order. */
export interface ChainSummary {
  id: string;
  /** The chain as it runs, for what filing decides before the walk (filedSkip). */
  definition: ResolvedChain;
  nodes: { id: string; kind: 'exec' | 'gate'; skippable: boolean }[];
}

export type ChainLookup =
  | { ok: true; chain: ChainSummary }
  | { ok: false; reason: 'unknown'; known: string[] }
  | { ok: false; reason: 'unresolved'; detail: string };

export interface ChainCatalog {
  lookup(id: string): ChainLookup;
}

/** The refusal of a chain id that names no chain: the ids there are, and the likely one meant. */
export function unknownChain(id: string, known: readonly string[]): JigError<'chain_unknown'> {
  const sorted = [...known].sort();
  return new JigError(
    'chain_unknown',
    { chain: id, hint: didYouMean(id, sorted), known: sorted.join(', ') || 'none' },
    { chains: sorted },
  );
}

/** The chain of that id as it runs, or the refusal a request naming it gets (422). */
export function requireChain(catalog: ChainCatalog, id: string): ChainSummary {
  const found = catalog.lookup(id);
  if (found.ok) return found.chain;
  if (found.reason === 'unknown') throw unknownChain(id, found.known);
  throw new JigError('chain_unresolved', { chain: id, reason: found.detail });
}

/** Refuses an id that names no chain at all (one that exists but does not resolve is let be). */
export function requireKnownChain(catalog: ChainCatalog, id: string): void {
  const found = catalog.lookup(id);
  if (!found.ok && found.reason === 'unknown') throw unknownChain(id, found.known);
}
