/*
 * Promise chains that run work one at a time. Written here rather than taken from a library
 * (p-queue, p-limit): each is a few lines, and what the callers need is exactly this: a failure
 * reaches its caller and never stops the work queued after it.
 */

/** Runs functions one at a time, in the order they were given. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once everything queued so far has ended. */
  async idle(): Promise<void> {
    await this.tail;
  }
}

/** A queue per key (an item, a repository), dropped once it runs empty. */
export class KeyedQueues {
  private readonly tails = new Map<string, Promise<void>>();

  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.tails.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
