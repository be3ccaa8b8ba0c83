/**
 * One line of tracker calls for comments and closes alike, so an item's "completed." comment is
 * posted before its issue is closed (a closed Jira issue may refuse comments), and trackers are
 * never asked twice at once by Jig. A failed call is told to `onError` and the line goes on.
 */
export class TrackerQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly onError: (err: unknown, what: string) => void) {}

  run(what: string, fn: () => Promise<void>): Promise<void> {
    const next = this.tail.then(fn).catch((err: unknown) => this.onError(err, what));
    this.tail = next;
    return next;
  }

  /** Resolves once everything queued so far has run. */
  drain(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
