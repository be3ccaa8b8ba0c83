/**
 * Launches in a capped scope, one CLI at a time where it tells its usage only at its end. Such a
 * session cannot be stopped part-way over a cap (nothing says how much it has spent until it is
 * over), so its worst case is everything the scope has left: while it runs it holds the scope, and
 * every other launch there waits for it to end, then checks the caps again with what it spent.
 * A CLI that tells its usage as it goes holds nothing (the live watch stops it within a second) but
 * still waits for a holder. In memory: an item's sessions are launched by the one process walking it.
 */
export class SpendReservations {
  private readonly held = new Map<string, Promise<void>>();

  /**
   * Waits until none of `keys` is held, then holds them when `hold` (else holds nothing). Answers
   * the release, to call once the session has ended.
   */
  async acquire(keys: readonly string[], hold: boolean): Promise<() => void> {
    for (;;) {
      const busy = keys.flatMap((k) => {
        const p = this.held.get(k);
        return p ? [p] : [];
      });
      if (busy.length === 0) break;
      await Promise.all(busy);
    }
    if (!hold || keys.length === 0) return () => undefined;
    let done: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (done = resolve));
    for (const k of keys) this.held.set(k, mine);
    return () => {
      for (const k of keys) if (this.held.get(k) === mine) this.held.delete(k);
      done();
    };
  }

  /** Whether any scope is held (tests and health). */
  get size(): number {
    return this.held.size;
  }
}
