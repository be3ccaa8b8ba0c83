import { ScopePolicy } from '../../contract/config/scope-policy.js';
import type { Walk, WallClock } from '../../contract/walk.js';
import type { Clock, TimerHandle } from '../clock.js';
import { clockedItemIds } from '../../store/item-scans.js';
import { clockAt, elapsedMinutes, heldMs, hold, release } from '../../core/chain/walk-state.js';
import type { Logger } from 'pino';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ModelNode, ModelTask, ResolvedChain } from '../../core/chain/model.js';
import { stepAt } from '../../core/chain/walk-rules.js';
import { WaitTarget } from '../../contract/config/task.js';
import { overrideAt } from '../../core/items/policy-override.js';
import { durationMinutes } from '../../core/policy/gate-timeout.js';
import type { Store } from '../../store/database.js';
import { getItem, updateItem } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import { policyOf } from './resources.js';
import type { Slots } from './slots.js';

/*
 * `total_time_cap_minutes`: wall clock, waits included (a queue slot, a gate, a rate-limit park),
 * less the time the item was held by a person: paused, or stopped on something other than a gate
 * or a rate limit (a failure, a question, a cap). Such a stop is a pause in all but name: nothing
 * runs and nothing waits on the outside world, so counting it would only make a person's retry
 * stop at once. Each clock remembers the item's paused total when it started; its elapsed time is
 * the wall time since then less the pauses added since.
 */

// The clocks' arithmetic is pure (core/chain/walk-state.ts); the engine's modules import it here.
export { clockAt, elapsedMinutes, heldMs, hold, release };

export interface WallCrossed {
  scope: 'task' | 'step' | 'node' | 'gate' | 'work_item';
  path: string;
  /** `total_time_cap_minutes`, or a gate's `timeout`. */
  key: 'total_time_cap_minutes' | 'timeout';
  limit_minutes: number;
  elapsed_minutes: number;
}

type Level = { total_time_cap_minutes?: number } | undefined;
const own = (v: unknown): number | undefined => {
  const r = ScopePolicy.safeParse(v && typeof v === 'object' && 'policy' in v ? v.policy : undefined);
  return r.success ? r.data?.total_time_cap_minutes : undefined;
};

/**
 * The cap of one scope: the item's override, else the scope's own policy, else policy.yaml's
 * default for its level; `maxima` for the level bounds it whoever set it.
 */
function capOf(override: unknown, path: string, value: unknown, level: Level, max: Level): number | null {
  const v = overrideAt(override, path).total_time_cap_minutes ?? own(value) ?? level?.total_time_cap_minutes;
  if (v === undefined) return null;
  const m = max?.total_time_cap_minutes;
  return m === undefined ? v : Math.min(v, m);
}

/** A wait's timeout when neither its task nor policy.yaml's task defaults set one. */
export const DEFAULT_WAIT_MINUTES = 90;
const isWait = (t: ModelTask): boolean => t.kind === 'forge' && WaitTarget.safeParse(t.target).success;

/**
 * The first wall-clock cap the item has reached: the running step's and its tasks' (their clock is
 * the step's, since a step's tasks start together), the current node's, a pending gate's own cap or
 * `timeout`, and the item's. Null when none is reached, or the item keeps no clocks (filed before
 * they existed).
 */
export function wallClockCrossed(input: {
  walk: Walk;
  chain: ResolvedChain;
  policy: PolicyFile | null;
  override: unknown;
  now: number;
}): WallCrossed | null {
  const { walk: w, chain, policy, override, now } = input;
  const d = policy?.defaults;
  const x = policy?.maxima;
  const checks: { c: WallClock | null | undefined; s: Omit<WallCrossed, 'elapsed_minutes'> | null }[] = [];
  const at = (
    scope: WallCrossed['scope'],
    path: string,
    limit: number | null,
    key: WallCrossed['key'] = 'total_time_cap_minutes',
  ) => (limit === null ? null : { scope, path, key, limit_minutes: limit });
  // A step clock counts only while a step is in flight (`step_at` is cleared between steps).
  const sc = w.step_at ? w.step_clock : null;
  const step = sc ? stepAt(chain, sc.path) : null;
  if (sc && step) {
    for (const t of step.tasks) {
      // A forge wait without a cap of its own times out after the default wait (reference §2.4).
      const cap = capOf(override, t.path, t, d?.tasks, x?.tasks) ?? (isWait(t) ? DEFAULT_WAIT_MINUTES : null);
      checks.push({ c: sc, s: at('task', t.path, cap) });
    }
    checks.push({ c: sc, s: at('step', step.path, capOf(override, step.path, step, d?.steps, x?.steps)) });
  }
  const node: ModelNode | undefined = chain.nodes[w.node];
  if (node?.kind === 'exec') {
    checks.push({
      c: w.node_clock,
      s: at('node', node.id, capOf(override, node.id, node, d?.nodes, x?.nodes)),
    });
  } else if (node?.kind === 'gate' && w.gate_clock) {
    const gc = w.gate_clock;
    checks.push({ c: gc, s: at('gate', node.id, capOf(override, node.id, node, undefined, undefined)) });
    const t = typeof node.timeout === 'string' ? durationMinutes(node.timeout) : null;
    checks.push({ c: gc, s: at('gate', node.id, t, 'timeout') });
  }
  checks.push({
    c: w.clock,
    s: at('work_item', 'work_item', capOf(override, 'work_item', chain, d?.work_item, x?.work_item)),
  });
  for (const { c, s } of checks) {
    if (!c || !s) continue;
    const e = elapsedMinutes(c, w, now);
    if (e >= s.limit_minutes) return { ...s, elapsed_minutes: e };
  }
  return null;
}

/** What a person reads when a wall clock stops the item. */
export function wallReason(c: WallCrossed): string {
  const used = `${c.elapsed_minutes.toFixed(1)} of ${+c.limit_minutes.toFixed(2)} minutes`;
  if (c.key === 'timeout') {
    return `gate ${c.path} timed out (${used}); it stays open: approve or reject it`;
  }
  const where = c.scope === 'work_item' ? 'the work item' : `${c.scope} ${c.path}`;
  const gate = c.scope === 'gate' ? '; the gate stays open' : '';
  return `total_time_cap_minutes of ${where} reached: ${used} of wall clock, less pauses${gate} (raise it with the item's policy_override)`;
}

export interface WallClockHost {
  store: Store;
  clock: Clock;
  events: EventLog;
  log: Logger;
  /** The running policy: an item that froze none yet is held to it. */
  config: { readonly policy: PolicyFile | null };
}

/**
 * Watches the wall clocks of every item whose clocks run (running, queued, waiting on the forge, at
 * a gate, parked on a rate limit) and stops an item whose clock reached its cap: a cap stop, never a code failure, so no
 * fix cycle is spent (a repair cut short is refunded as paused). One sweep a second over the
 * handful of active items is cheaper and simpler than a timer per clock that every move re-arms.
 */
export class WallClocks {
  private timer: TimerHandle | null = null;
  private stopped = false;
  private busy = false;
  private term = 0;

  constructor(
    private readonly h: WallClockHost,
    /** Hands a stopped item's slot to the next queued item. */
    private readonly slots: Pick<Slots, 'promote'>,
    /** Ends a stopped item's live sessions (process groups and descendants). */
    private readonly sessions: { end(id: string): Promise<void> },
    private readonly everyMs = 1000,
  ) {}

  start(): void {
    this.stopped = false;
    // Each start is a term: a sweep of an earlier term that ends after a stop and a start arms nothing.
    const term = ++this.term;
    const tick = async (): Promise<void> => {
      await this.sweep();
      if (!this.stopped && this.term === term) this.timer = this.h.clock.setTimer(tick, this.everyMs);
    };
    this.timer = this.h.clock.setTimer(tick, this.everyMs);
  }

  async sweep(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const ids = await clockedItemIds(this.h.store.db);
      for (const id of ids) await this.stopIfCrossed(id);
    } catch (err) {
      this.h.log.error({ err }, 'wall-clock sweep failed');
    } finally {
      this.busy = false;
    }
  }

  /**
   * Stops the item when one of its wall clocks ran out (the sweep, and the check before a launch,
   * both come here, so the stop is recorded the same way whoever notices it). True when it stopped.
   */
  async stopIfCrossed(id: string): Promise<boolean> {
    const stopped = await this.h.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec?.walk || !rec.chain_definition) return null;
      const active =
        rec.status === 'running' ||
        rec.status === 'queued' ||
        rec.status === 'waiting' ||
        (rec.status === 'stopped' &&
          (rec.stop_kind === 'gate' || (rec.stop_kind === 'rate_limit' && !!rec.walk.parked_until)));
      if (!active) return null;
      const crossed = wallClockCrossed({
        walk: rec.walk,
        chain: rec.chain_definition,
        policy: policyOf(this.h, rec),
        override: rec.policy_override,
        now: this.h.clock.now(),
      });
      if (!crossed) return null;
      // A wait's timeout is its task's total_time_cap_minutes: a `wait` stop that says what it saw.
      const wait = rec.status === 'waiting' ? rec.walk.wait : null;
      const timedOut = !!wait && crossed.scope === 'task' && crossed.path === wait.task;
      const kind = timedOut ? 'wait' : 'cap';
      const reason = timedOut
        ? `${wait.task} (${wait.target}) timed out: its total_time_cap_minutes (${+crossed.limit_minutes.toFixed(2)}) passed; the last check saw: ${wait.last?.detail ?? 'nothing yet'}. Retry to wait again, or raise the cap with the item's policy_override`
        : wallReason(crossed);
      // Marked stopped first, so the walk sees it and halts; then its processes are ended.
      await updateItem(uow.db, id, {
        status: 'stopped',
        stop_kind: kind,
        stop_reason: reason,
        queued_at: null,
        walk: hold({ ...rec.walk, parked_until: null }, this.h.clock.now()),
        updated_at: new Date(this.h.clock.now()).toISOString(),
      });
      const base = { work_item_id: id, by: 'jig' as const, node: rec.current_node };
      await uow.emit({
        ...base,
        type: crossed.key === 'timeout' ? 'gate_timed_out' : 'time_cap_reached',
        payload: {
          clock: 'total',
          scope: crossed.scope,
          path: crossed.path,
          key: crossed.key,
          limit_minutes: crossed.limit_minutes,
          // Rounded up, so the figure recorded is never below the limit it crossed.
          elapsed_minutes: Math.ceil(crossed.elapsed_minutes * 1000) / 1000,
          from: rec.status === 'stopped' ? `stopped:${rec.stop_kind ?? ''}` : rec.status,
        },
      });
      await uow.emit({ ...base, type: 'work_item_needs_human', payload: { kind, reason } });
      return rec.status;
    });
    if (stopped === 'running' || stopped === 'waiting') await this.sessions.end(id);
    if (stopped === 'running' || stopped === 'queued') this.slots.promote();
    return stopped !== null;
  }

  close(): void {
    this.stopped = true;
    if (this.timer) this.h.clock.clearTimer(this.timer);
    this.timer = null;
  }
}
