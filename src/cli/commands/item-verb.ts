import type { WorkItem } from '../../contract/items.js';
import { EXIT_FAIL, EXIT_USAGE, runVerb } from '../output.js';
import { NoItemId } from '../item-of-cwd.js';
import { BadArgument } from './item-setup-args.js';

/* What the item verbs share: how a refusal the CLI decides itself ends, and how a new state reads. */

/** A verb (or flag) whose server side arrives with a later feature: exit 1, never a fake success. */
export class NotInThisBuild extends Error {
  /** `after` ends the line, e.g. "; nothing was filed". */
  constructor(verb: string, feature: string, after = '') {
    super(`${verb} is not available in this build (it comes with ${feature})${after}`);
    this.name = 'NotInThisBuild';
  }
}

/** Runs an item verb: a bad argument or a missing ID is a usage error (2), a verb not built yet a failure (1). */
export function itemVerb(fn: () => Promise<number> | number): Promise<void> {
  return runVerb(async () => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof BadArgument || err instanceof NoItemId) {
        process.stderr.write(`jig: ${err.message}\n`);
        return EXIT_USAGE;
      }
      if (err instanceof NotInThisBuild) {
        process.stderr.write(`jig: ${err.message}\n`);
        return EXIT_FAIL;
      }
      throw err;
    }
  });
}

/** Runs a setup verb (item-setup.ts): a BadArgument is a usage error, the rest is runVerb's. */
export function setupVerb(fn: () => Promise<number>): Promise<void> {
  return runVerb(async () => {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof BadArgument)) throw err;
      process.stderr.write(`jig: ${err.message}\n`);
      return EXIT_USAGE;
    }
  });
}

/** How an act's answer reads at the end of its summary line: "the item is now running". */
export function nowPhrase(item: WorkItem): string {
  switch (item.status) {
    case 'running':
      return 'the item is now running';
    case 'queued':
      return 'the item is queued for a free slot';
    case 'paused':
      return 'the item is paused';
    case 'blocked': {
      const waits = (item.waiting_on ?? []).map((d) => `${d.id} (${d.status})`).join(', ');
      return `the item is blocked until what it comes after completes${waits ? `: ${waits}` : ''}`;
    }
    case 'stopped': {
      const stop = item.stop;
      if (!stop) return 'the item is stopped';
      if (stop.kind === 'gate') return `the item waits at gate ${item.current_node ?? '?'}`;
      if (stop.kind === 'rate_limit') return 'the item waits for a rate limit to reset';
      return `the item is stopped (${stop.kind}): ${stop.reason}`;
    }
    default:
      return `the item is ${item.status}`;
  }
}
