import type { PolicyFile } from '../../contract/config/policy.js';
import type { Store } from '../../store/database.js';
import { sessionsOf, spentSince, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import { countedTokens } from './agent-session.js';
import { crossedCap, crossedReason } from './spend.js';

/** The policy the item froze at its first start (the running one before that). */
export function policyOf(rec: ItemRecord, config: Pick<ConfigState, 'policy'>): PolicyFile | null {
  return rec.policy_snapshot ?? config.policy;
}

/** Spend of every item since local midnight, and how many of today's sessions have no price. */
export async function todaySpend(store: Store, clock: Clock): Promise<{ usd: number; unpriced: number }> {
  const midnight = new Date(clock.now());
  midnight.setHours(0, 0, 0, 0);
  return spentSince(store.db, midnight.toISOString());
}

/** The daily cap's measure: dollars spent today. */
export async function dailySpent(store: Store, clock: Clock): Promise<number> {
  return (await todaySpend(store, clock)).usd;
}

/**
 * An agent's usage grew: the item's totals follow, and a running session that takes a scope past
 * its token or dollar cap is named (the answer is why) so the runner ends it at once.
 */
export async function onUsage(
  d: { store: Store; config: Pick<ConfigState, 'policy'>; clock: Clock },
  s: SessionRecord,
  final: boolean,
): Promise<string | null> {
  const all = await sessionsOf(d.store.db, s.work_item_id);
  const usd = all.reduce((sum, x) => sum + (x.cost_usd ?? 0), 0);
  const tokens = all.reduce((sum, x) => sum + countedTokens(x), 0);
  await updateItem(d.store.db, s.work_item_id, {
    spent_usd: Math.round(usd * 1e6) / 1e6,
    spent_tokens: tokens,
  });
  if (final) return null;
  const rec = await getItem(d.store.db, s.work_item_id);
  if (!rec?.chain_definition) return null;
  const crossed = crossedCap({
    rec,
    chain: rec.chain_definition,
    policy: policyOf(rec, d.config),
    taskPath: s.task_path,
    sessions: all,
    dailySpent: await dailySpent(d.store, d.clock),
  });
  if (!crossed) return null;
  // Crossing, not reaching: a session is stopped only when it has gone past the cap.
  if (crossed.used <= crossed.limit) return null;
  return crossedReason(crossed);
}
