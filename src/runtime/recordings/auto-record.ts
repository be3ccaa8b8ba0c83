import type { Logger } from 'pino';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { EventRecord } from '../../contract/events.js';
import type { Recordings } from './recordings.js';

/** The ends that are kept when `record_runs` is on: an item that will not run again. */
const ENDS = new Set(['work_item_completed', 'work_item_cancelled']);

/**
 * `policy.yaml` `record_runs: true` (issue 51): each item that completes or is cancelled is
 * recorded as `jig item record` would. A duty of the leading process (one recording per end, however
 * many serve), one item at a time, so a burst of ends does not read a burst of logs at once.
 */
export class AutoRecord {
  private unsubscribe: (() => void) | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly d: {
      events: { subscribe(l: (events: readonly EventRecord[]) => void): () => void };
      recordings: Pick<Recordings, 'record'>;
      policy: () => PolicyFile | null;
      log: Logger;
    },
  ) {}

  start(): void {
    this.unsubscribe ??= this.d.events.subscribe((events) => {
      if (!this.d.policy()?.record_runs) return;
      for (const e of events) {
        const id = e.work_item_id;
        if (id && ENDS.has(e.type)) this.queue = this.queue.then(() => this.record(id));
      }
    });
  }

  private async record(id: string): Promise<void> {
    try {
      const { name } = await this.d.recordings.record(id);
      this.d.log.info({ item: id, recording: name }, 'recorded an ended item (record_runs)');
    } catch (err) {
      this.d.log.warn({ err, item: id }, 'recording an ended item failed');
    }
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.queue;
  }
}
