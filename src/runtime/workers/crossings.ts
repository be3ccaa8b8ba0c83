import type { SessionRecord } from '../../store/sessions.js';
import type { OverCap } from './item-spend.js';

/** How long a crossing is remembered: far past any launch under way when it was decided. */
const KEEP_MS = 10 * 60_000;

/**
 * The cap crossings this process decided, so that one crossing gives one reason. Two sessions of
 * a scope can each find it crossed a moment apart, each with the spend it knew (a parallel task
 * whose launch was still under way when its sibling crossed, or whose own usage was read just
 * after): a session that started before a crossing of its item and scope was decided ends with
 * that crossing's reason. A session started after it (a retry once the budget was raised) crosses
 * anew, with its own figure.
 */
export class Crossings {
  private readonly seen = new Map<string, { reason: string; at: number }>();

  constructor(private readonly now: () => number) {}

  /** The reason `s` ends with for crossing `over`: the first crossing's, when `s` started before it. */
  reasonFor(s: Pick<SessionRecord, 'work_item_id' | 'started_at'>, over: OverCap): string {
    const key = `${s.work_item_id}\u0000${over.scope}\u0000${over.path}`;
    const prior = this.seen.get(key);
    if (prior && Date.parse(s.started_at) <= prior.at) return prior.reason;
    const at = this.now();
    for (const [k, v] of this.seen) if (at - v.at > KEEP_MS) this.seen.delete(k);
    this.seen.set(key, { reason: over.reason, at });
    return over.reason;
  }
}
