import { describe, expect, it } from 'vitest';
import { StoredWalk, type Walk } from '../../contract/walk.js';
import {
  atNode,
  clockAt,
  elapsedMinutes,
  firstWalk,
  freshEntry,
  hold,
  release,
  remeasure,
} from './walk-state.js';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const min = 60_000;

describe('walk transitions', () => {
  it('a first walk starts at node 0 with its clock running', () => {
    expect(firstWalk(T0)).toEqual({
      v: 1,
      phase: 'node',
      node: 0,
      step: 0,
      rejects: {},
      approved: [],
      clock: { at: '2026-11-23T10:00:00.000Z', paused_ms: 0 },
    });
  });

  it('entering a node keeps what belongs to the item and drops the node it leaves', () => {
    const w: Walk = {
      ...firstWalk(T0),
      phase: 'escalation',
      stuck_reason: 'stuck',
      node: 2,
      step: 3,
      rejects: { review: 1 },
      approved: ['plan_review'],
      artifacts: { spec: '.jig/docs/spec.md' },
      base_restarts: { build: 1 },
      reviews: { review: 2 },
      auto_escalations: 1,
      paused_ms: 5,
      paused_at: null,
      entry: 2,
      cycles: 3,
      rounds: [],
      measured: ['s1'],
      node_clock: { at: 'x', paused_ms: 0 },
      parked_until: '2026-11-23T11:00:00.000Z',
      rate_limit_retries: 2,
      conflict: { base: 'main', base_tip: 'abc', files: ['a'] },
    };
    expect(atNode(w, 3)).toEqual({
      v: 1,
      phase: 'node',
      node: 3,
      step: 0,
      rejects: { review: 1 },
      approved: ['plan_review'],
      artifacts: { spec: '.jig/docs/spec.md' },
      base_restarts: { build: 1 },
      reviews: { review: 2 },
      auto_escalations: 1,
      clock: { at: '2026-11-23T10:00:00.000Z', paused_ms: 0 },
      paused_ms: 5,
      paused_at: null,
    });
  });

  it('a fresh entry resets the counters and looks at the base again; a re-measure only the measurement', () => {
    const w: Walk = {
      ...firstWalk(T0),
      phase: 'repair',
      entry: 1,
      cycles: 2,
      measured: ['a'],
      concerns: 'c',
      base_checked: true,
    };
    expect(freshEntry(w)).toMatchObject({
      phase: 'node',
      entry: 2,
      cycles: 0,
      measured: [],
      concerns: null,
      base_checked: false,
    });
    expect(remeasure(w)).toMatchObject({
      phase: 'node',
      cycles: 2,
      measured: [],
      concerns: null,
      base_checked: true,
    });
  });

  it('a hold is not counted on a clock', () => {
    const w = firstWalk(T0);
    const held = hold(w, T0 + 10 * min);
    expect(hold(held, T0 + 12 * min)).toBe(held);
    const back = release(held, T0 + 40 * min);
    expect(back.paused_ms).toBe(30 * min);
    expect(elapsedMinutes(w.clock!, back, T0 + 50 * min)).toBe(20);
    expect(clockAt(back, T0 + 50 * min)).toEqual({ at: '2026-11-23T10:50:00.000Z', paused_ms: 30 * min });
  });
});

describe('StoredWalk', () => {
  it('reads a walk an earlier release wrote (no v, no phase) as version 1 at phase node', () => {
    const old = { node: 1, step: 0, rejects: {}, approved: [], entry: 1 };
    expect(StoredWalk.parse(old)).toEqual({ ...old, v: 1, phase: 'node' });
  });

  it('refuses a walk it cannot read, naming what is wrong', () => {
    const r = StoredWalk.safeParse({ v: 2, node: 0, step: 0, rejects: {}, approved: [] });
    expect(r.success).toBe(false);
    expect(StoredWalk.safeParse({ node: 'x', step: 0, rejects: {}, approved: [] }).success).toBe(false);
    expect(
      StoredWalk.safeParse({ phase: 'conflict', node: 0, step: 0, rejects: {}, approved: [] }).success,
    ).toBe(false);
    expect(StoredWalk.safeParse({ node: 0, step: 0, rejects: {}, approved: [], surprise: 1 }).success).toBe(
      false,
    );
  });
});
