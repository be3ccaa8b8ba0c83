import { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import { walkChain, type Visit } from '../../core/chain/walk.js';
import type { SessionRecord } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import { overrideAt } from '../../core/items/policy-override.js';
import { countedTokens } from './agent-session.js';
import { usdText } from '../../core/money/usd.js';

export interface Crossed {
  scope: 'task' | 'step' | 'node' | 'work_item' | 'daily';
  path: string;
  key: 'token_budget' | 'budget_usd' | 'work_item_usd' | 'daily_usd';
  limit: number;
  used: number;
}

type Caps = { token_budget?: number; budget_usd?: number };

const capsOf = (v: unknown): Caps => {
  const r = ScopePolicy.safeParse(v && typeof v === 'object' && 'policy' in v ? v.policy : undefined);
  const p = r.success ? r.data : undefined;
  return {
    ...(p?.token_budget !== undefined ? { token_budget: p.token_budget } : {}),
    ...(p?.budget_usd !== undefined ? { budget_usd: p.budget_usd } : {}),
  };
};

/** A scope's own cap, else policy.yaml's default for its level. */
function pick(own: Caps, level: Caps | undefined, key: keyof Caps): number | null {
  const v = own[key] ?? level?.[key];
  return typeof v === 'number' ? v : null;
}

const dollars = (ss: readonly SessionRecord[]): number => ss.reduce((sum, s) => sum + (s.cost_usd ?? 0), 0);
const tokens = (ss: readonly SessionRecord[]): number => ss.reduce((sum, s) => sum + countedTokens(s), 0);

/** The visit of a task path in the frozen chain and the step and node above it. */
function locate(chain: ResolvedChain, taskPath: string): { task?: Visit; step?: Visit; node?: Visit } {
  const task = walkChain(chain).find((v) => v.kind === 'task' && v.path === taskPath);
  let step: Visit | undefined;
  let node: Visit | undefined;
  for (let p = task?.parent ?? null; p; p = p.parent) {
    if (p.kind === 'step' && !step) step = p;
    if (p.kind === 'node') node = p;
  }
  return { ...(task ? { task } : {}), ...(step ? { step } : {}), ...(node ? { node } : {}) };
}

interface Scope {
  scope: Crossed['scope'];
  path: string;
  caps: Caps;
  level?: Caps;
  of: SessionRecord[];
}

/**
 * The scopes a task's spend counts in: the task, its step and its node (over their sessions in the
 * current entry) and the work item (the chain's caps), each with its caps (the item's own override
 * for the scope replacing the chain's).
 */
function scopesOf(
  rec: ItemRecord,
  chain: ResolvedChain,
  policy: PolicyFile | null,
  taskPath: string,
  sessions: readonly SessionRecord[],
): Scope[] {
  const d = policy?.defaults;
  const where = locate(chain, taskPath);
  const since = rec.walk?.step_at ?? '';
  const scopes: Scope[] = [];
  if (where.task) {
    scopes.push({
      scope: 'task',
      path: taskPath,
      caps: capsOf(where.task.value),
      ...(d?.tasks ? { level: d.tasks } : {}),
      of: sessions.filter((s) => s.task_path === taskPath && s.started_at >= since),
    });
  }
  if (where.step) {
    const prefix = `${where.step.path}.`;
    scopes.push({
      scope: 'step',
      path: where.step.path,
      caps: capsOf(where.step.value),
      ...(d?.steps ? { level: d.steps } : {}),
      of: sessions.filter((s) => s.task_path.startsWith(prefix) && s.started_at >= since),
    });
  }
  if (where.node) {
    const id = where.node.path;
    scopes.push({
      scope: 'node',
      path: id,
      caps: capsOf(where.node.value),
      ...(d?.nodes ? { level: d.nodes } : {}),
      of: sessions.filter((s) => s.node === id),
    });
  }
  scopes.push({
    scope: 'work_item',
    path: rec.id,
    caps: capsOf(chain),
    ...(d?.work_item ? { level: d.work_item } : {}),
    of: [...sessions],
  });
  for (const sc of scopes) {
    // The item's own override for the scope replaces the chain's cap (not policy's outer ceilings).
    const o = overrideAt(rec.policy_override, sc.scope === 'work_item' ? 'work_item' : sc.path);
    sc.caps = {
      ...sc.caps,
      ...(o.token_budget !== undefined ? { token_budget: o.token_budget } : {}),
      ...(o.budget_usd !== undefined ? { budget_usd: o.budget_usd } : {}),
    };
  }
  return scopes;
}

/**
 * The first token or dollar cap the item's spend has reached, for a task about to launch or running:
 * the task, its step and its node (over their sessions in the current entry), the work item (the
 * chain's caps, its own budget or policy's `budget.work_item_usd`), and policy's `daily_usd` over
 * every item since local midnight. Null when all are below their caps.
 */
export function crossedCap(input: {
  rec: ItemRecord;
  chain: ResolvedChain;
  policy: PolicyFile | null;
  taskPath: string;
  sessions: readonly SessionRecord[];
  dailySpent: number;
}): Crossed | null {
  const { rec, chain, policy, taskPath, sessions } = input;
  for (const sc of scopesOf(rec, chain, policy, taskPath, sessions)) {
    const t = pick(sc.caps, sc.level, 'token_budget');
    if (t !== null && tokens(sc.of) >= t)
      return { scope: sc.scope, path: sc.path, key: 'token_budget', limit: t, used: tokens(sc.of) };
    const u = pick(sc.caps, sc.level, 'budget_usd');
    if (u !== null && dollars(sc.of) >= u)
      return { scope: sc.scope, path: sc.path, key: 'budget_usd', limit: u, used: dollars(sc.of) };
  }
  const itemCap = rec.budget_usd ?? policy?.budget?.work_item_usd ?? null;
  const spent = dollars(sessions);
  if (itemCap !== null && spent >= itemCap)
    return { scope: 'work_item', path: rec.id, key: 'work_item_usd', limit: itemCap, used: spent };
  const daily = policy?.budget?.daily_usd ?? null;
  if (daily !== null && input.dailySpent >= daily)
    return { scope: 'daily', path: 'today', key: 'daily_usd', limit: daily, used: input.dailySpent };
  return null;
}

/**
 * The scopes of the item holding a token or dollar cap over this task (the daily ceiling spans
 * every item and is left out): where a launch that tells its usage only at its end reserves what
 * is left (spend-reservations.ts).
 */
export function cappedScopes(
  rec: ItemRecord,
  chain: ResolvedChain,
  policy: PolicyFile | null,
  taskPath: string,
): { scope: Crossed['scope']; path: string }[] {
  const out = scopesOf(rec, chain, policy, taskPath, [])
    .filter(
      (sc) =>
        pick(sc.caps, sc.level, 'token_budget') !== null || pick(sc.caps, sc.level, 'budget_usd') !== null,
    )
    .map(({ scope, path }) => ({ scope, path }));
  const itemCap = rec.budget_usd ?? policy?.budget?.work_item_usd ?? null;
  if (itemCap !== null && !out.some((s) => s.scope === 'work_item'))
    out.push({ scope: 'work_item', path: rec.id });
  return out;
}

const fmt = (c: Crossed, v: number): string =>
  c.key === 'token_budget' ? `${Math.round(v)} tokens` : `${usdText(v)} USD`;

/** The stop reason a person reads, naming the cap to raise. */
export function crossedReason(c: Crossed): string {
  const where =
    c.scope === 'daily'
      ? 'policy.yaml budget.daily_usd (all items since local midnight)'
      : c.key === 'work_item_usd'
        ? `the item's dollar budget (raise it with \`jig item raise-budget ${c.path} --usd N\` or POST /api/work-items/${c.path}/budget/raise)`
        : `${c.key} of ${c.scope === 'work_item' ? 'the work item' : `${c.scope} ${c.path}`}`;
  return `${where}: ${fmt(c, c.used)} used of ${fmt(c, c.limit)}`;
}
