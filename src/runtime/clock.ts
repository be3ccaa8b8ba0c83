/**
 * The only clock of the runtime (DESIGN.md rule 7): the engine, the workers, the wall clocks,
 * parking and the pollers read time and set timers through it, so tests and benchmarks move time
 * by hand instead of waiting for it.
 */

export type TimerCallback = () => void | Promise<void>;

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; the handle cancels it. */
  setTimer(fn: TimerCallback, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** The real clock: Date.now and setTimeout. */
export function systemClock(): Clock {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimer(fn, ms) {
      const id = next++;
      timers.set(
        id,
        setTimeout(
          () => {
            timers.delete(id);
            // The owner handles its own errors; a rejection here must not kill the process.
            void Promise.resolve()
              .then(fn)
              .catch(() => undefined);
          },
          Math.max(0, ms),
        ),
      );
      return { id };
    },
    clearTimer(handle) {
      const t = timers.get(handle.id);
      if (t !== undefined) clearTimeout(t);
      timers.delete(handle.id);
    },
  };
}

interface ManualTimer {
  id: number;
  at: number;
  fn: TimerCallback;
}

/**
 * A clock that moves only when told. `advance`/`advanceTo` run every timer that falls due on the
 * way, in order, with `now()` set to each timer's due time, and wait for the promise a callback
 * returns before going on, so a test sees a tick's whole effect when the call returns.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: ManualTimer[] = [];
  private nextId = 1;

  constructor(start: number | Date) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: TimerCallback, ms: number): TimerHandle {
    const t = { id: this.nextId++, at: this.current + Math.max(0, ms), fn };
    this.timers.push(t);
    return { id: t.id };
  }

  clearTimer(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle.id);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + ms);
  }

  async advanceTo(target: number | Date): Promise<void> {
    const to = typeof target === 'number' ? target : target.getTime();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      await due.fn();
    }
    this.current = Math.max(this.current, to);
  }

  /**
   * Moves the time without running any timer: a process that was stopped, or a machine that slept.
   * Timers due in the skipped span run on the next `advance`, late, as real ones would.
   */
  jumpTo(target: number | Date): void {
    this.current = typeof target === 'number' ? target : target.getTime();
  }
}

/** The clock's time as the store keeps it (ISO 8601, UTC). */
export function stamp(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
