import type {
  AnalyticsFigures,
  AnalyticsGroup,
  AnalyticsRow,
  NodeOutcome,
} from '../../contract/analytics.js';

/** One stored session as analytics reads it, with its item's chain and repository. */
export interface SessionFacts {
  work_item_id: string;
  node: string;
  kind: string;
  harness: string | null;
  model: string | null;
  chain: string;
  repo: string;
  started_at: string;
  exited_at: string | null;
  cost_usd: number | null;
  cost_source: string | null;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
}

/** The Monday (UTC) of an instant's week, as `YYYY-MM-DD`. */
export function weekOf(iso: string): string {
  const d = new Date(iso);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back))
    .toISOString()
    .slice(0, 10);
}

const NONE = '(none)';

function keyOf(s: SessionFacts, group: AnalyticsGroup): string {
  switch (group) {
    case 'node':
      return s.node;
    case 'chain':
      return s.chain;
    case 'repo':
      return s.repo;
    case 'harness':
      return s.harness ?? NONE;
    case 'model':
      return s.model ?? NONE;
    case 'week':
      return weekOf(s.started_at);
    case 'day':
      return new Date(s.started_at).toISOString().slice(0, 10);
  }
}

/** Sums in micro-dollars, so adding many small costs does not drift. */
const micro = (usd: number): number => Math.round(usd * 1e6);

function figures(list: readonly SessionFacts[]): AnalyticsFigures {
  let reported = 0;
  let estimated = 0;
  let runMs = 0;
  const t = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  for (const s of list) {
    if (s.cost_usd !== null) {
      // A harness's per-launch figure is an estimate too.
      if (s.cost_source === 'estimated' || s.cost_source === 'per_launch') estimated += micro(s.cost_usd);
      else reported += micro(s.cost_usd);
    }
    if (s.exited_at !== null) runMs += Math.max(0, Date.parse(s.exited_at) - Date.parse(s.started_at));
    t.input += s.tokens_input;
    t.output += s.tokens_output;
    t.cache_read += s.tokens_cache_read;
    t.cache_write += s.tokens_cache_write;
  }
  return {
    sessions: list.length,
    agent_sessions: list.filter((s) => s.kind === 'agent').length,
    items: new Set(list.map((s) => s.work_item_id)).size,
    cost_usd: (reported + estimated) / 1e6,
    cost_reported_usd: reported / 1e6,
    cost_estimated_usd: estimated / 1e6,
    unpriced_sessions: list.filter((s) => s.kind === 'agent' && s.cost_usd === null).length,
    tokens: t,
    run_time_s: Math.round(runMs) / 1000,
  };
}

/** The sessions grouped one way, most expensive first (then by key), and their totals. */
export function aggregate(
  sessions: readonly SessionFacts[],
  group: AnalyticsGroup,
): { rows: AnalyticsRow[]; totals: AnalyticsFigures } {
  const by = new Map<string, SessionFacts[]>();
  for (const s of sessions) {
    const k = keyOf(s, group);
    const list = by.get(k);
    if (list) list.push(s);
    else by.set(k, [s]);
  }
  const rows = [...by].map(([key, list]) => ({ key, ...figures(list) }));
  const chronological = group === 'week' || group === 'day';
  rows.sort((a, b) =>
    chronological ? a.key.localeCompare(b.key) : b.cost_usd - a.cost_usd || a.key.localeCompare(b.key),
  );
  return { rows, totals: figures(sessions) };
}

/** How each node's runs ended, from the counts of its `node_started`, `node_completed` and stop events. */
export function outcomes(counts: readonly { type: string; node: string; n: number }[]): NodeOutcome[] {
  const by = new Map<string, { runs: number; completed: number; stopped: number }>();
  for (const c of counts) {
    const o = by.get(c.node) ?? { runs: 0, completed: 0, stopped: 0 };
    if (c.type === 'node_started') o.runs += c.n;
    else if (c.type === 'node_completed') o.completed += c.n;
    else if (c.type === 'work_item_needs_human') o.stopped += c.n;
    by.set(c.node, o);
  }
  const rate = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000);
  return [...by]
    .map(([node, o]) => ({
      node,
      ...o,
      success_rate: rate(o.completed, o.runs),
      stop_rate: rate(o.stopped, o.runs),
    }))
    .sort((a, b) => b.runs - a.runs || a.node.localeCompare(b.node));
}
