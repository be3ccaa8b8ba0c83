import { formatProblem, type Problem } from '../../../contract/problems.js';
import type { ConfigSet } from '../../config/validate-set.js';
import { capScopes, type CapScope } from '../../policy/caps.js';

/*
 * `GET /api/drafts/policy/{key}/preview?chain=` (spec drafts.md, "Reading drafts"): the caps each
 * scope of one chain runs under with the policy draft laid over. The layering is the one the
 * checks and the editors' `sources` use (`capScopes`), so the preview cannot disagree with them.
 */

export interface PolicyPreview {
  chain: string;
  scopes: CapScope[];
}

/** Why a preview cannot be drawn; the route maps each to its status. */
export type PreviewRefusal =
  | { refused: 'library_not_loaded'; reason: string }
  | { refused: 'chain_unknown' }
  | { refused: 'policy_not_loaded'; reason: string }
  | { refused: 'chain_unresolved'; reason: string };

const firstMessage = (ps: readonly Problem[]): string => (ps[0] ? formatProblem(ps[0]) : 'it does not load');

/**
 * The preview of chain `chainId` under the set's policy.yaml (the draft's). Checked in this order:
 * the library loads, the chain is in it, policy.yaml loads, the chain resolves.
 */
export function policyPreview(set: ConfigSet, chainId: string): PolicyPreview | PreviewRefusal {
  const lib = set.library;
  if (!lib.model || lib.problems.length > 0) {
    const reason = lib.problems.length > 0 ? firstMessage(lib.problems) : 'library.yaml is missing';
    return { refused: 'library_not_loaded', reason };
  }
  const chain = Object.hasOwn(set.chains, chainId) ? set.chains[chainId] : undefined;
  if (!chain) return { refused: 'chain_unknown' };
  if (!set.policy.model) return { refused: 'policy_not_loaded', reason: firstMessage(set.policy.problems) };
  if (!chain.checked || !chain.tree)
    return { refused: 'chain_unresolved', reason: firstMessage(chain.problems) };
  const { scopes } = capScopes({ id: chain.id, checked: chain.checked, tree: chain.tree }, set.policy.model);
  return { chain: chain.id, scopes };
}
