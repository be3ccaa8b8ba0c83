import type { Logger } from 'pino';
import type { LeadChange } from '../store/lease.js';

/** A part of the server that runs in one process at a time (store/leader.ts). */
export interface Duty {
  name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

/**
 * What a `jig serve` does when it comes to lead, and when it stops leading: the duties start in
 * order and stop in reverse. One that fails to start is logged and the rest still start: a tracker
 * that cannot be reached must not keep the schedules from firing.
 */
export function leaderDuties(log: Logger, duties: readonly Duty[]): LeadChange {
  return async (leading) => {
    const order = leading ? duties : [...duties].reverse();
    for (const d of order) {
      try {
        await (leading ? d.start() : d.stop());
      } catch (err) {
        log.error({ err, duty: d.name }, `${leading ? 'starting' : 'stopping'} ${d.name} failed`);
      }
    }
    log.info(
      { duties: duties.map((d) => d.name) },
      leading ? 'leading: this serve runs the duties' : 'no longer leading',
    );
  };
}
