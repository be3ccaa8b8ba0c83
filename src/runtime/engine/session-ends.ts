import type { Workers } from '../workers/workers.js';
import type { Waits } from './waits.js';

/** Ends an item's live sessions: its processes (workers) and its forge wait, which has no process. */
export class SessionEnds {
  constructor(
    private readonly workers: Pick<Workers, 'endSessions'>,
    private readonly waits: Pick<Waits, 'end'>,
  ) {}

  /** `cancelled` when the item's move ends it for good, else `paused` (a resume continues them). */
  async end(id: string, why?: 'paused' | 'cancelled'): Promise<void> {
    await this.workers.endSessions(id, why);
    await this.waits.end(id);
  }
}
