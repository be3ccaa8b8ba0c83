import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../src/contract/events.js';
import type { Item } from '../api.js';
import { duration, nodeStates, runsText } from './node-states.js';

let seq = 0;
const ev = (
  type: string,
  node: string | null,
  at: string,
  payload: Record<string, unknown> = {},
): EventRecord => ({
  seq: ++seq,
  v: 1,
  work_item_id: 'w',
  type,
  at: `2026-11-24T10:00:${at}.000Z`,
  by: 'jig',
  node,
  payload,
});

const item = (over: Partial<Item>) =>
  ({ status: 'running', current_node: null, stop: null, ...over }) as Item;

describe('node states from events', () => {
  it('marks done, skipped, waiting and pending nodes with their times and runs', () => {
    const events = [
      ev('node_started', 'build', '00'),
      ev('node_completed', 'build', '05'),
      ev('gate_requested', 'review', '05'),
      ev('gate_rejected', 'review', '07', { gate: 'review' }),
      ev('node_started', 'build', '08'),
      ev('node_completed', 'build', '10'),
      ev('gate_requested', 'review', '10'),
      ev('node_skipped', 'docs', '10'),
    ];
    const s = nodeStates(
      item({
        status: 'stopped',
        current_node: 'review',
        stop: { kind: 'gate', reason: '', suggested_action: null },
      }),
      ['build', 'review', 'docs', 'finish'],
      events,
      Date.parse('2026-11-24T10:00:40.000Z'),
    );
    expect(Object.fromEntries(s)).toEqual({
      build: { state: 'done', ms: 2000, runs: 2 },
      review: { state: 'waiting', ms: 30_000, runs: 2 },
      docs: { state: 'skipped', ms: null, runs: 0 },
      finish: { state: 'pending', ms: null, runs: 0 },
    });
  });

  it('counts the gate the item waits at as asked once before its request event is read', () => {
    const at = item({
      status: 'stopped',
      current_node: 'review',
      stop: { kind: 'gate', reason: '', suggested_action: null },
    });
    const now = Date.parse('2026-11-24T10:00:40.000Z');
    const before = nodeStates(at, ['build', 'review'], [ev('node_started', 'build', '00')], now);
    const after = nodeStates(
      at,
      ['build', 'review'],
      [ev('node_started', 'build', '00'), ev('gate_requested', 'review', '05')],
      now,
    );
    expect([before.get('review')?.runs, after.get('review')?.runs]).toEqual([1, 1]);
    expect(runsText('gate', before.get('review')!.runs)).toBe('asked once');
    expect([runsText('gate', 0), runsText('exec', 0), runsText('exec', 3)]).toEqual([
      'not asked yet',
      'not run yet',
      'run 3 times',
    ]);
  });

  it('takes the stop of the current node from the item', () => {
    const s = nodeStates(
      item({
        status: 'stopped',
        current_node: 'build',
        stop: { kind: 'failed', reason: 'x', suggested_action: null },
      }),
      ['build'],
      [ev('node_started', 'build', '00')],
      Date.parse('2026-11-24T10:00:03.000Z'),
    );
    expect(s.get('build')).toEqual({ state: 'stopped', ms: null, runs: 1 });
  });

  it('writes durations for people', () => {
    expect([850, 42_000, 180_000, 7_500_000].map(duration)).toEqual(['850 ms', '42 s', '3 min', '2 h 5 min']);
  });
});
