import type { ChainTestExpect, ChainTestReport } from '../../contract/chain-test.js';
import type { EventRecord } from '../../contract/events.js';

/*
 * A chain test's report from what the test server recorded (issue 51): the path is the item's own
 * event log, the kinds that say where the walk went, each in a line; spend comes from the
 * sessions, which the events do not carry.
 */

export interface EndState {
  status: string;
  stop: { kind: string; reason: string } | null;
  spent_usd: number;
  spent_tokens: number;
}

export interface SessionRow {
  task_path: string;
  status: string;
  cost_usd: number | null;
  tokens: { input: number; output: number };
  note: string | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * One line per event that moves the walk; null for the rest. Sessions are listed apart: tasks of
 * a step run at once, and the order they end in is theirs, not the chain's.
 */
function line(e: EventRecord): string | null {
  const p = e.payload;
  switch (e.type) {
    case 'node_started':
      return 'started';
    case 'node_completed':
      return p.downgraded === true ? 'completed (downgraded)' : 'completed';
    case 'node_skipped':
      return 'skipped';
    case 'findings_measured': {
      const n = Array.isArray(p.findings) ? p.findings.length : 0;
      return `round ${str(p.round)}: ${n} finding(s)${p.loop_open === true ? ', the fix loop opens' : ''}`;
    }
    case 'fix_cycle_started':
      return `fix cycle ${str(p.cycle)} of ${str(p.attempts)}`;
    case 'judge_verdict':
      return `judge: ${str(p.applied)}`;
    case 'node_stuck':
      return 'stuck';
    case 'gate_requested':
      return 'gate waits';
    case 'gate_approved':
      return 'gate approved';
    case 'gate_rejected':
      return `gate rejected${typeof p.note === 'string' ? `: ${p.note}` : ''}`;
    case 'work_item_needs_human':
      return `stopped (${str(p.kind)}): ${str(p.reason)}`;
    case 'work_item_completed':
      return 'item completed';
    default:
      return null;
  }
}

function expectations(
  x: ChainTestExpect,
  end: EndState,
  reached: Set<string>,
): ChainTestReport['expectations'] {
  const out: ChainTestReport['expectations'] = [];
  if (x.completes !== undefined) {
    const done = end.status === 'completed';
    out.push({ expect: `completes: ${x.completes}`, ok: done === x.completes, actual: end.status });
  }
  if (x.stops !== undefined) {
    const kind = end.stop?.kind ?? 'none';
    out.push({
      expect: `stops: ${x.stops}`,
      ok: end.status !== 'completed' && kind === x.stops,
      actual: kind,
    });
  }
  for (const node of x.reaches ?? []) {
    out.push({
      expect: `reaches: ${node}`,
      ok: reached.has(node),
      actual: reached.has(node) ? 'started' : 'never started',
    });
  }
  if (x.spent_below !== undefined) {
    out.push({
      expect: `spent_below: ${x.spent_below}`,
      ok: end.spent_usd < x.spent_below,
      actual: `$${end.spent_usd}`,
    });
  }
  return out;
}

/** Where the walk went, a line per event that moved it, and the nodes that started. */
export function pathOf(events: readonly EventRecord[]): {
  path: ChainTestReport['path'];
  reached: Set<string>;
} {
  const path: ChainTestReport['path'] = [];
  const reached = new Set<string>();
  for (const e of events) {
    // A gate node starts by asking: gate_requested (it has no node_started of its own).
    if ((e.type === 'node_started' || e.type === 'gate_requested') && e.node) reached.add(e.node);
    const detail = line(e);
    if (detail !== null) path.push({ type: e.type, node: e.node, detail });
  }
  return { path, reached };
}

export function buildReport(input: {
  chain: string;
  ended: string;
  finished: boolean;
  end: EndState;
  events: EventRecord[];
  sessions: SessionRow[];
  expect: ChainTestExpect;
}): ChainTestReport {
  const { path, reached } = pathOf(input.events);
  const attempts = new Map<string, number>();
  const sessions = input.sessions.map((s) => {
    const attempt = (attempts.get(s.task_path) ?? 0) + 1;
    attempts.set(s.task_path, attempt);
    return {
      task: s.task_path,
      attempt,
      status: s.status,
      cost_usd: s.cost_usd,
      tokens: s.tokens.input + s.tokens.output,
      note: s.note,
    };
  });
  const checks = expectations(input.expect, input.end, reached);
  return {
    chain: input.chain,
    ok: input.finished && checks.every((c) => c.ok),
    status: input.end.status,
    stop: input.end.stop,
    ended: input.ended,
    path,
    sessions,
    spent_usd: input.end.spent_usd,
    spent_tokens: input.end.spent_tokens,
    expectations: checks,
    divergences: [],
  };
}
