import type { PolicyFile } from '../../contract/config/policy.js';
import type { Store } from '../../store/database.js';
import { sessionsOf, spentSince, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { ConfigState } from '../config/config-state.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { countedTokens, type Pricing } from './agent-session.js';
import { crossedCap, crossedReason, type Crossed } from './spend.js';

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

/** What the runner needs to follow agent sessions: their providers, prices, and the item's spend. */
export interface AgentHooks {
  provider(id: string): ProviderDefinition | undefined;
  /** The price table and the session's harness's launch_usd (harnesses.yaml as it is now). */
  pricing(harness: string | null): Pricing;
  /**
   * Called with the session's usage each time it grows (and once at the end, before its status is
   * written): the item's totals follow, and the answer is the cap crossed (why, and its scope), or
   * null.
   */
  onUsage(s: SessionRecord, final: boolean): Promise<OverCap | null>;
}

/** A cap a session took its scope past: why (the stop reason), and the scope it holds. */
export interface OverCap {
  reason: string;
  scope: Crossed['scope'];
  /** The scope's path: a task or step path, a node id, the item id, or `today`. */
  path: string;
}

/**
 * An agent's usage grew, or its session ended (`final`, with its last usage): the item's totals
 * follow, and a session that takes a scope past its token or dollar cap is named (the answer is
 * why, and which scope) so the runner ends it at once, or, at its end, records it as over its
 * budget: a CLI that reports its spend only when it ends still stops the item at that node.
 */
export async function onUsage(
  d: { store: Store; config: Pick<ConfigState, 'policy'>; clock: Clock },
  s: SessionRecord,
  final: boolean,
): Promise<OverCap | null> {
  const stored = await sessionsOf(d.store.db, s.work_item_id);
  // The session as just read: at its end its last usage is not in the store yet.
  const was = stored.find((x) => x.id === s.id);
  const all = was ? stored.map((x) => (x.id === s.id ? { ...x, ...s } : x)) : [...stored, s];
  const usd = all.reduce((sum, x) => sum + (x.cost_usd ?? 0), 0);
  const tokens = all.reduce((sum, x) => sum + countedTokens(x), 0);
  await updateItem(d.store.db, s.work_item_id, {
    spent_usd: Math.round(usd * 1e6) / 1e6,
    spent_tokens: tokens,
  });
  const rec = await getItem(d.store.db, s.work_item_id);
  if (!rec?.chain_definition) return null;
  const unstored = final ? Math.max(0, (s.cost_usd ?? 0) - (was?.cost_usd ?? 0)) : 0;
  const crossed = crossedCap({
    rec,
    chain: rec.chain_definition,
    policy: policyOf(rec, d.config),
    taskPath: s.task_path,
    sessions: all,
    dailySpent: (await dailySpent(d.store, d.clock)) + unstored,
  });
  if (!crossed) return null;
  // Crossing, not reaching: a session is stopped only when it has gone past the cap.
  if (crossed.used <= crossed.limit) return null;
  return { reason: crossedReason(crossed), scope: crossed.scope, path: crossed.path };
}

/** Whether a session runs inside a scope a cap holds (so it stops with it). */
export function inScope(s: Pick<SessionRecord, 'node' | 'task_path'>, over: OverCap): boolean {
  switch (over.scope) {
    case 'task':
      return s.task_path === over.path;
    case 'step':
      return s.task_path.startsWith(`${over.path}.`);
    case 'node':
      return s.node === over.path;
    case 'work_item':
    case 'daily':
      return true;
  }
}
