import type { Walk, WallClock } from '../../contract/walk.js';
import { describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ResolvedChainInput } from '../../contract/config/resolved-chain.js';
import { toModel, type ResolvedChain } from '../../core/chain/model.js';
import {
  clockAt,
  elapsedMinutes,
  heldMs,
  hold,
  release,
  wallClockCrossed,
  wallReason,
  type WallCrossed,
} from './wall-clock.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const base: Walk = { v: 1, phase: 'node', node: 0, step: 0, rejects: {}, approved: [] };
const clock = (at: number, paused_ms = 0): WallClock => ({ at: iso(at), paused_ms });

describe('held time', () => {
  it('heldMs is the paused total plus the running hold, never less than the total', () => {
    expect(heldMs(base, T0)).toBe(0);
    expect(heldMs({ ...base, paused_ms: 5000 }, T0)).toBe(5000);
    expect(heldMs({ ...base, paused_ms: 5000, paused_at: iso(T0) }, T0 + 3000)).toBe(8000);
    expect(heldMs({ ...base, paused_at: iso(T0) }, T0 + 2 * MIN)).toBe(2 * MIN);
    // A hold that (by clock skew) starts after now adds nothing.
    expect(heldMs({ ...base, paused_ms: 700, paused_at: iso(T0 + 1000) }, T0)).toBe(700);
    expect(heldMs({ ...base, paused_ms: 700, paused_at: null }, T0 + 1000)).toBe(700);
  });

  it('hold starts once and keeps the first start; release adds its length and clears it', () => {
    const held = hold(base, T0);
    expect(held).toEqual({ ...base, paused_at: iso(T0) });
    expect(base).toEqual({ v: 1, phase: 'node', node: 0, step: 0, rejects: {}, approved: [] }); // not mutated
    const again = hold(held, T0 + 10_000);
    expect(again).toBe(held);
    const released = release(again, T0 + 30_000);
    expect(released).toEqual({ ...base, paused_ms: 30_000, paused_at: null });
    // A second hold adds to the first.
    const twice = release(hold(released, T0 + 60_000), T0 + 65_000);
    expect(twice).toEqual({ ...base, paused_ms: 35_000, paused_at: null });
    // Release without a hold is a no-op (the same object).
    expect(release(twice, T0 + 99_000)).toBe(twice);
    expect(release(base, T0)).toBe(base);
  });

  it('clockAt remembers when it started and the held total at that moment', () => {
    expect(clockAt(base, T0)).toEqual({ at: iso(T0), paused_ms: 0 });
    expect(clockAt({ ...base, paused_ms: 1500 }, T0)).toEqual({ at: iso(T0), paused_ms: 1500 });
    // Started during a hold: the running part of the hold counts as already held.
    expect(clockAt({ ...base, paused_ms: 1500, paused_at: iso(T0 - 500) }, T0)).toEqual({
      at: iso(T0),
      paused_ms: 2000,
    });
  });

  it('elapsedMinutes is wall time since the start less the holds added since', () => {
    const c = clock(T0, 1000);
    expect(elapsedMinutes(c, { ...base, paused_ms: 1000 }, T0 + 3 * MIN)).toBe(3);
    expect(elapsedMinutes(c, { ...base, paused_ms: 1000 + MIN }, T0 + 3 * MIN)).toBe(2);
    // A hold still running freezes the clock.
    const w = { ...base, paused_ms: 1000, paused_at: iso(T0 + 2 * MIN) };
    expect(elapsedMinutes(c, w, T0 + 2 * MIN)).toBe(2);
    expect(elapsedMinutes(c, w, T0 + 50 * MIN)).toBe(2);
    // Run 1 min, hold 9 min, run 2 min: 3 minutes.
    let walk: Walk = base;
    const c2 = clockAt(walk, T0);
    walk = hold(walk, T0 + MIN);
    walk = release(walk, T0 + 10 * MIN);
    expect(elapsedMinutes(c2, walk, T0 + 12 * MIN)).toBe(3);
    // A clock started after the hold is not charged for it.
    const c3 = clockAt(walk, T0 + 11 * MIN);
    expect(elapsedMinutes(c3, walk, T0 + 12 * MIN)).toBe(1);
  });
});

/** A chain in the model form an item freezes: `build` (steps `main`, `check`), gate `review`, `ship`. */
function chain(extra: { chain?: object; build?: object; review?: object; main?: object; t?: object } = {}) {
  return toModel({
    id: 'c',
    ...extra.chain,
    nodes: [
      {
        id: 'build',
        kind: 'exec',
        ...extra.build,
        steps: [
          {
            id: 'main',
            ...extra.main,
            tasks: [
              { id: 't', kind: 'subprocess', run: 'true', ...extra.t },
              { id: 'u', kind: 'subprocess', run: 'true' },
            ],
          },
          { id: 'check', tasks: [{ id: 'v', kind: 'subprocess', run: 'true' }] },
        ],
      },
      { id: 'review', kind: 'gate', ...extra.review },
      { id: 'ship', kind: 'exec', tasks: [{ id: 'w', kind: 'subprocess', run: 'true' }] },
    ],
  } as unknown as ResolvedChainInput);
}

const cap = (n: number) => ({ policy: { total_time_cap_minutes: n } });
const policy = (p: object) => p as unknown as PolicyFile;

/** The walk inside `build`, its step `main` launched at T0 with every clock started then. */
const inStep: Walk = {
  ...base,
  entry: 1,
  step_at: iso(T0),
  clock: clock(T0),
  node_clock: clock(T0),
  step_clock: { ...clock(T0), path: 'build.main' },
};
/** The walk waiting at gate `review` since T0. */
const atGate: Walk = { ...base, node: 1, clock: clock(T0), gate_clock: clock(T0) };

function crossed(
  c: ResolvedChain,
  walk: Walk,
  minutes: number,
  opts: { policy?: object; override?: unknown } = {},
): WallCrossed | null {
  return wallClockCrossed({
    walk,
    chain: c,
    policy: opts.policy ? policy(opts.policy) : null,
    override: opts.override ?? null,
    now: T0 + minutes * MIN,
  });
}

describe('wallClockCrossed', () => {
  it('answers null when no scope has a cap, or the item keeps no clocks', () => {
    expect(crossed(chain(), inStep, 10_000)).toBeNull();
    expect(crossed(chain(), atGate, 10_000)).toBeNull();
    // Caps everywhere, but an item filed before clocks existed has none running.
    const capped = chain({
      chain: cap(1),
      build: cap(1),
      main: cap(1),
      t: cap(1),
      review: { ...cap(1), timeout: '1m' },
    });
    expect(crossed(capped, base, 10_000)).toBeNull();
    expect(crossed(capped, { ...base, node: 1 }, 10_000)).toBeNull();
    expect(crossed(capped, { ...base, step_at: iso(T0) }, 10_000)).toBeNull();
  });

  it('the work item cap from the chain policy: crossed at the limit, not before', () => {
    const c = chain({ chain: cap(5) });
    expect(crossed(c, inStep, 4.99)).toBeNull();
    expect(crossed(c, inStep, 5)).toEqual({
      scope: 'work_item',
      path: 'work_item',
      key: 'total_time_cap_minutes',
      limit_minutes: 5,
      elapsed_minutes: 5,
    });
    // The item clock runs at a gate too (a wait counts).
    expect(crossed(c, atGate, 6)).toEqual({
      scope: 'work_item',
      path: 'work_item',
      key: 'total_time_cap_minutes',
      limit_minutes: 5,
      elapsed_minutes: 6,
    });
  });

  it('the work item cap from policy.yaml defaults.work_item when the chain sets none', () => {
    const p = { defaults: { work_item: { total_time_cap_minutes: 2 } } };
    expect(crossed(chain(), inStep, 1.5, { policy: p })).toBeNull();
    expect(crossed(chain(), inStep, 2.5, { policy: p })).toMatchObject({
      scope: 'work_item',
      limit_minutes: 2,
      elapsed_minutes: 2.5,
    });
    // The chain's own policy beats the default.
    expect(crossed(chain({ chain: cap(3) }), inStep, 2.5, { policy: p })).toBeNull();
  });

  it("the item's policy_override beats the chain policy, both ways and in both spellings", () => {
    const c = chain({ chain: cap(5) });
    const raised = { work_item: { total_time_cap_minutes: 60 } };
    expect(crossed(c, inStep, 30, { override: raised })).toBeNull();
    expect(crossed(c, inStep, 61, { override: raised })).toMatchObject({
      scope: 'work_item',
      limit_minutes: 60,
    });
    const lowered = { 'work_item.total_time_cap_minutes': 0.5 };
    expect(crossed(c, inStep, 0.75, { override: lowered })).toEqual({
      scope: 'work_item',
      path: 'work_item',
      key: 'total_time_cap_minutes',
      limit_minutes: 0.5,
      elapsed_minutes: 0.75,
    });
    // Over a policy.yaml default too; an override for another key or scope changes nothing.
    const p = { defaults: { work_item: { total_time_cap_minutes: 1 } } };
    expect(
      crossed(chain(), inStep, 2, { policy: p, override: { work_item: { total_time_cap_minutes: 3 } } }),
    ).toBeNull();
    expect(
      crossed(chain(), inStep, 2, {
        policy: p,
        override: { work_item: { time_cap_minutes: 30 }, build: {} },
      }),
    ).toMatchObject({ scope: 'work_item', limit_minutes: 1 });
  });

  it('policy.yaml maxima bound a level whoever set the cap, an override included', () => {
    const p = { maxima: { work_item: { total_time_cap_minutes: 10 }, nodes: { total_time_cap_minutes: 4 } } };
    const c = chain({ chain: cap(5), build: cap(60) });
    expect(crossed(c, inStep, 4.5, { policy: p })).toMatchObject({
      scope: 'node',
      path: 'build',
      limit_minutes: 4,
    });
    const raised = { work_item: { total_time_cap_minutes: 600 }, build: { total_time_cap_minutes: 600 } };
    expect(crossed(c, inStep, 9, { policy: p, override: raised })).toMatchObject({
      scope: 'node',
      limit_minutes: 4,
    });
    const item = { work_item: { total_time_cap_minutes: 600 } };
    expect(crossed(chain({ chain: cap(5) }), inStep, 9, { policy: p, override: item })).toBeNull();
    expect(crossed(chain({ chain: cap(5) }), inStep, 10, { policy: p, override: item })).toMatchObject({
      scope: 'work_item',
      limit_minutes: 10,
    });
  });

  it('the node cap: its own policy, policy.yaml defaults.nodes, an override at its path; its clock is the entry', () => {
    const c = chain({ build: cap(2) });
    const entered = { ...inStep, node_clock: clock(T0 + MIN) };
    expect(crossed(c, entered, 2.5)).toBeNull();
    expect(crossed(c, entered, 3)).toEqual({
      scope: 'node',
      path: 'build',
      key: 'total_time_cap_minutes',
      limit_minutes: 2,
      elapsed_minutes: 2,
    });
    const p = { defaults: { nodes: { total_time_cap_minutes: 1 } } };
    expect(crossed(chain(), inStep, 1, { policy: p })).toMatchObject({
      scope: 'node',
      path: 'build',
      limit_minutes: 1,
    });
    expect(crossed(c, inStep, 2, { override: { build: { total_time_cap_minutes: 9 } } })).toBeNull();
    expect(
      crossed(chain(), inStep, 0.25, { override: { 'build.total_time_cap_minutes': 0.2 } }),
    ).toMatchObject({
      scope: 'node',
      path: 'build',
      limit_minutes: 0.2,
    });
    // No node clock (a node entered before clocks existed): nothing to measure.
    expect(crossed(c, { ...inStep, node_clock: null }, 100)).toBeNull();
  });

  it('the step cap counts only while the step is in flight (step_at set)', () => {
    const c = chain({ main: cap(1) });
    expect(crossed(c, inStep, 1)).toEqual({
      scope: 'step',
      path: 'build.main',
      key: 'total_time_cap_minutes',
      limit_minutes: 1,
      elapsed_minutes: 1,
    });
    expect(crossed(c, { ...inStep, step_at: null }, 100)).toBeNull();
    expect(crossed(c, { ...inStep, step_at: undefined }, 100)).toBeNull();
    // The clock belongs to the step it names: step `check` has no cap.
    expect(crossed(c, { ...inStep, step_clock: { ...clock(T0), path: 'build.check' } }, 100)).toBeNull();
    // defaults.steps and an override at the step path.
    const p = { defaults: { steps: { total_time_cap_minutes: 3 } } };
    expect(crossed(chain(), inStep, 3, { policy: p })).toMatchObject({ scope: 'step', path: 'build.main' });
    expect(
      crossed(chain(), { ...inStep, step_clock: { ...clock(T0), path: 'build.check' } }, 0.1, {
        override: { 'build.check': { total_time_cap_minutes: 0.05 } },
      }),
    ).toMatchObject({ scope: 'step', path: 'build.check', limit_minutes: 0.05 });
  });

  it("a task's cap runs on its step's clock; an override at the task path beats its own policy", () => {
    const c = chain({ t: cap(2) });
    expect(crossed(c, inStep, 1.9)).toBeNull();
    expect(crossed(c, inStep, 2)).toEqual({
      scope: 'task',
      path: 'build.main.t',
      key: 'total_time_cap_minutes',
      limit_minutes: 2,
      elapsed_minutes: 2,
    });
    expect(crossed(c, { ...inStep, step_at: null }, 100)).toBeNull();
    expect(crossed(c, inStep, 2, { override: { 'build.main.t': { total_time_cap_minutes: 5 } } })).toBeNull();
    expect(
      crossed(chain(), inStep, 0.06, { override: { 'build.main.u.total_time_cap_minutes': 0.05 } }),
    ).toMatchObject({
      scope: 'task',
      path: 'build.main.u',
      limit_minutes: 0.05,
    });
    const p = { defaults: { tasks: { total_time_cap_minutes: 4 } } };
    expect(crossed(chain(), inStep, 4, { policy: p })).toMatchObject({ scope: 'task', path: 'build.main.t' });
  });

  it('when several are crossed the narrowest answers: task, step, node, then the work item', () => {
    const all = chain({ chain: cap(1), build: cap(1), main: cap(1), t: cap(1) });
    expect(crossed(all, inStep, 2)).toMatchObject({ scope: 'task', path: 'build.main.t' });
    expect(crossed(all, { ...inStep, step_at: null }, 2)).toMatchObject({ scope: 'node', path: 'build' });
    expect(crossed(all, { ...inStep, step_at: null, node_clock: null }, 2)).toMatchObject({
      scope: 'work_item',
    });
    // A narrower clock that has not run out does not hide a wider one that has.
    const wide = chain({ chain: cap(1), t: cap(60) });
    expect(crossed(wide, inStep, 2)).toMatchObject({ scope: 'work_item', elapsed_minutes: 2 });
  });

  it("a gate: its timeout and its own cap run on the gate's clock, from the request", () => {
    const timed = chain({ review: { timeout: '2s' } });
    const requested = { ...atGate, gate_clock: clock(T0 + MIN) };
    expect(crossed(timed, requested, 1 + 1 / 60)).toBeNull();
    expect(crossed(timed, requested, 1.5)).toEqual({
      scope: 'gate',
      path: 'review',
      key: 'timeout',
      limit_minutes: 2 / 60,
      elapsed_minutes: 0.5,
    });
    expect(crossed(chain({ review: { timeout: '90m' } }), atGate, 89)).toBeNull();
    expect(crossed(chain({ review: { timeout: '2h' } }), atGate, 120)).toMatchObject({ limit_minutes: 120 });
    expect(crossed(chain({ review: { timeout: '7d' } }), atGate, 7 * 1440)).toMatchObject({
      key: 'timeout',
      limit_minutes: 10080,
    });
    const own = chain({ review: cap(3) });
    expect(crossed(own, atGate, 3)).toEqual({
      scope: 'gate',
      path: 'review',
      key: 'total_time_cap_minutes',
      limit_minutes: 3,
      elapsed_minutes: 3,
    });
    expect(crossed(own, atGate, 3, { override: { review: { total_time_cap_minutes: 10 } } })).toBeNull();
    // Both crossed: the cap is named before the timeout.
    expect(crossed(chain({ review: { ...cap(3), timeout: '1m' } }), atGate, 4)).toMatchObject({
      key: 'total_time_cap_minutes',
    });
    // Not requested yet (no gate clock): neither runs; the item's clock still does.
    const noClock = { ...atGate, gate_clock: null };
    expect(crossed(timed, noClock, 100)).toBeNull();
    expect(crossed(chain({ chain: cap(5), review: { timeout: '2s' } }), noClock, 6)).toMatchObject({
      scope: 'work_item',
    });
  });

  it("the walk's position decides: a node clock is not read at a gate, a gate clock not at an exec node", () => {
    const c = chain({ build: cap(1), review: { timeout: '1m' } });
    expect(crossed(c, { ...atGate, gate_clock: null, node_clock: clock(T0) }, 10)).toBeNull();
    expect(crossed(c, { ...inStep, step_at: null, node_clock: null, gate_clock: clock(T0) }, 10)).toBeNull();
  });

  it('time the item was held is not counted, at every scope', () => {
    const all = chain({ chain: cap(5), build: cap(5), main: cap(5), t: cap(5) });
    const heldTen = { ...inStep, paused_ms: 10 * MIN };
    expect(crossed(all, heldTen, 14)).toBeNull();
    expect(crossed(all, heldTen, 15)).toMatchObject({ scope: 'task', elapsed_minutes: 5 });
    // A hold still running: frozen however long it lasts.
    const holding = { ...inStep, paused_at: iso(T0 + MIN) };
    expect(crossed(all, holding, 1000)).toBeNull();
    // Held before the clocks started: not subtracted again.
    const before = {
      ...inStep,
      paused_ms: 10 * MIN,
      clock: clock(T0, 10 * MIN),
      node_clock: clock(T0, 10 * MIN),
      step_clock: { ...clock(T0, 10 * MIN), path: 'build.main' },
    };
    expect(crossed(all, before, 5)).toMatchObject({ scope: 'task', elapsed_minutes: 5 });
  });
});

describe('wallReason', () => {
  const c = (x: Partial<WallCrossed>): WallCrossed => ({
    scope: 'work_item',
    path: 'work_item',
    key: 'total_time_cap_minutes',
    limit_minutes: 0.05,
    elapsed_minutes: 0.0712,
    ...x,
  });
  it('names the scope, the minutes used and how to go on', () => {
    expect(wallReason(c({}))).toBe(
      "total_time_cap_minutes of the work item reached: 0.1 of 0.05 minutes of wall clock, less pauses (raise it with the item's policy_override)",
    );
    expect(wallReason(c({ scope: 'node', path: 'build', limit_minutes: 90, elapsed_minutes: 90.04 }))).toBe(
      "total_time_cap_minutes of node build reached: 90.0 of 90 minutes of wall clock, less pauses (raise it with the item's policy_override)",
    );
    expect(
      wallReason(c({ scope: 'task', path: 'build.main.t', limit_minutes: 1 / 3, elapsed_minutes: 0.4 })),
    ).toBe(
      "total_time_cap_minutes of task build.main.t reached: 0.4 of 0.33 minutes of wall clock, less pauses (raise it with the item's policy_override)",
    );
    expect(wallReason(c({ scope: 'gate', path: 'review', limit_minutes: 3, elapsed_minutes: 3.01 }))).toBe(
      "total_time_cap_minutes of gate review reached: 3.0 of 3 minutes of wall clock, less pauses; the gate stays open (raise it with the item's policy_override)",
    );
    expect(
      wallReason(
        c({ scope: 'gate', path: 'review', key: 'timeout', limit_minutes: 2 / 60, elapsed_minutes: 0.05 }),
      ),
    ).toBe('gate review timed out (0.1 of 0.03 minutes); it stays open: approve or reject it');
  });
});

describe('forge waits', () => {
  it('a wait without a cap of its own times out after 90 minutes; its own cap or a default wins', () => {
    const wait = { kind: 'forge', target: 'mr.merge', run: undefined };
    const c = chain({ t: wait });
    expect(crossed(c, inStep, 89.9)).toBeNull();
    expect(crossed(c, inStep, 90)).toEqual({
      scope: 'task',
      path: 'build.main.t',
      key: 'total_time_cap_minutes',
      limit_minutes: 90,
      elapsed_minutes: 90,
    });
    expect(crossed(chain({ t: { ...wait, ...cap(5) } }), inStep, 5)).toMatchObject({ limit_minutes: 5 });
    const p = { defaults: { tasks: { total_time_cap_minutes: 30 } } };
    expect(crossed(c, inStep, 30, { policy: p })).toMatchObject({ path: 'build.main.t', limit_minutes: 30 });
    // An immediate forge action is no wait: no default cap.
    expect(
      crossed(chain({ t: { kind: 'forge', target: 'mr.sync', run: undefined } }), inStep, 500),
    ).toBeNull();
  });
});
