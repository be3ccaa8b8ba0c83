/**
 * Whether the engine is closing (nothing new starts once it is), and the walks still in flight, so
 * a close can wait for them: a walk cut off by the store closing under it fails mid-write, and one
 * left running keeps starting git in the repository after the server said it stopped.
 */
export class EngineLife {
  private done = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  get closed(): boolean {
    return this.done;
  }

  close(): void {
    this.done = true;
  }

  /** Counts a walk until it settles (its failure is reported by whoever started it). */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const drop = (): void => {
      this.inFlight.delete(work);
    };
    work.then(drop, drop);
    return work;
  }

  /**
   * Resolves once every walk in flight has settled, or after `maxMs` (a walk waiting on a task
   * that outlives the server returns at its next step; the bound keeps a close from hanging on
   * one that does not). Answers whether all settled.
   */
  async settled(maxMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), maxMs);
      timer.unref();
    });
    try {
      while (this.inFlight.size > 0) {
        const all = Promise.allSettled([...this.inFlight]).then(() => true as const);
        if (!(await Promise.race([all, bound]))) return false;
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }
}
