import { JigError } from '../../contract/errors.js';
import type { ResolvedChain } from '../../contract/config/chain-model.js';
import { chainScopes } from '../../core/policy/scopes.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { ConfigState } from '../config/config-state.js';

/** The canonical paths of the chain's agent tasks: the only launches a steer can reach. */
export function agentTaskPaths(chain: ResolvedChain): string[] {
  return chainScopes(chain)
    .filter((s) => s.kind === 'task' && s.taskKind === 'agent')
    .map((s) => s.path);
}

/**
 * The item's frozen chain, or before its first start the chain it will freeze; when that does not
 * resolve now, null, or (`required`) the 422 a start would answer.
 */
export function chainToRun(rec: ItemRecord, config: Pick<ConfigState, 'lookup'>): ResolvedChain;
export function chainToRun(
  rec: ItemRecord,
  config: Pick<ConfigState, 'lookup'>,
  required: false,
): ResolvedChain | null;
export function chainToRun(
  rec: ItemRecord,
  config: Pick<ConfigState, 'lookup'>,
  required = true,
): ResolvedChain | null {
  if (rec.chain_definition) return rec.chain_definition;
  const found = config.lookup(rec.chain);
  if (found.ok) return found.chain.definition;
  if (!required) return null;
  const why =
    found.reason === 'unknown'
      ? `chain ${rec.chain} is not known`
      : `chain ${rec.chain} does not resolve: ${found.detail}`;
  throw new JigError('validation_failed', { reason: why });
}

/**
 * Refuses (422) a per-task steer that names no agent task of the item's chain: the frozen chain
 * once the item started, else the chain it will freeze. A steer no launch would take is lost
 * silently otherwise. A chain that does not resolve now is refused when the item starts instead.
 */
export function checkTaskSteers(
  rec: ItemRecord,
  config: Pick<ConfigState, 'lookup'>,
  steers: Readonly<Record<string, string>>,
): void {
  const chain = chainToRun(rec, config, false);
  if (!chain) return;
  const known = agentTaskPaths(chain);
  const wrong = Object.keys(steers).filter((p) => !known.includes(p));
  if (wrong.length === 0) return;
  const message = `names no agent task of chain ${rec.chain} (its agent tasks: ${known.join(', ') || 'none'})`;
  throw new JigError(
    'validation_failed',
    { reason: `body.steers.${wrong[0]}: ${message}` },
    { issues: wrong.map((p) => ({ field: `body.steers.${p}`, message })) },
  );
}
