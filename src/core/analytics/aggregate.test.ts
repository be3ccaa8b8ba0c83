import { describe, expect, it } from 'vitest';
import { aggregate, outcomes, weekOf, type SessionFacts } from './aggregate.js';

const s = (o: Partial<SessionFacts>): SessionFacts => ({
  work_item_id: 'a',
  node: 'n',
  kind: 'agent',
  harness: 'claude',
  model: 'm',
  chain: 'c',
  repo: '/r',
  started_at: '2026-11-23T10:00:00.000Z',
  exited_at: '2026-11-23T10:00:30.000Z',
  cost_usd: 0.1,
  cost_source: 'reported',
  tokens_input: 10,
  tokens_output: 5,
  tokens_cache_read: 1,
  tokens_cache_write: 0,
  ...o,
});

describe('analytics aggregation', () => {
  it('weeks start on Monday (UTC)', () => {
    expect(weekOf('2026-11-23T00:00:00Z')).toBe('2026-11-23'); // a Monday
    expect(weekOf('2026-11-29T23:59:59Z')).toBe('2026-11-23'); // its Sunday
    expect(weekOf('2026-11-30T00:00:00Z')).toBe('2026-11-30');
  });

  it('splits reported from estimated cost, counts unpriced agent sessions, sums without drift', () => {
    const list = [
      s({ cost_usd: 0.1 }),
      s({
        cost_usd: 0.2,
        cost_source: 'estimated',
        work_item_id: 'b',
        started_at: '2026-11-30T01:00:00.000Z',
        exited_at: '2026-11-30T01:00:30.000Z',
      }),
      s({ cost_usd: null, cost_source: null, harness: 'gemini', exited_at: null }),
      s({ kind: 'command', harness: null, model: null, cost_usd: null, cost_source: null, node: 'm' }),
    ];
    const byWeek = aggregate(list, 'week');
    expect(byWeek.rows.map((r) => [r.key, r.sessions])).toEqual([
      ['2026-11-23', 3],
      ['2026-11-30', 1],
    ]);
    expect(byWeek.totals).toEqual({
      sessions: 4,
      agent_sessions: 3,
      items: 2,
      cost_usd: 0.3,
      cost_reported_usd: 0.1,
      cost_estimated_usd: 0.2,
      unpriced_sessions: 1,
      tokens: { input: 40, output: 20, cache_read: 4, cache_write: 0 },
      run_time_s: 90,
    });
    expect(aggregate(list, 'harness').rows.map((r) => r.key)).toEqual(['claude', '(none)', 'gemini']);
  });

  it('rates each node from its starts, completions and stops', () => {
    expect(
      outcomes([
        { type: 'node_started', node: 'a', n: 4 },
        { type: 'node_completed', node: 'a', n: 3 },
        { type: 'work_item_needs_human', node: 'a', n: 1 },
        { type: 'work_item_needs_human', node: 'z', n: 1 },
      ]),
    ).toEqual([
      { node: 'a', runs: 4, completed: 3, stopped: 1, success_rate: 0.75, stop_rate: 0.25 },
      { node: 'z', runs: 0, completed: 0, stopped: 1, success_rate: null, stop_rate: null },
    ]);
  });
});
