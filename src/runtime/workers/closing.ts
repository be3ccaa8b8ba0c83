/** What a wait on a task's end rejects with when the server closes before the task ends. */
export class ServerClosing extends Error {
  constructor() {
    super('the server is closing; the task keeps running, to be adopted by the next start');
    this.name = 'ServerClosing';
  }
}

/**
 * The server's close, as waits on task processes see it: a walk waiting for a task that outlives
 * the server returns at once (ServerClosing) instead of holding the close until the task ends.
 */
export class Closing {
  private readonly ctl = new AbortController();

  close(): void {
    this.ctl.abort();
  }

  /** `work`, or ServerClosing as soon as the server closes. */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.ctl.signal;
    if (signal.aborted) return Promise.reject(new ServerClosing());
    return new Promise<T>((resolve, reject) => {
      const onClose = (): void => reject(new ServerClosing());
      signal.addEventListener('abort', onClose, { once: true });
      const done = (): void => signal.removeEventListener('abort', onClose);
      work.then(
        (v) => {
          done();
          resolve(v);
        },
        (e: unknown) => {
          done();
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }
}
