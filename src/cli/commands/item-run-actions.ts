import { nextFor, printAct } from '../next-step.js';
import { JigClient } from '../../client/http.js';
import { runMove, unblock, type RunMove, type RunMoveInput } from '../../client/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';
import { BadArgument } from './item-setup-args.js';

export interface RunOpts extends RunMoveInput {
  /** Commander keeps `--steer-task` under its own name. */
  steerTask?: Record<string, string>;
  json?: boolean;
}

/** One of `jig item resume|pause|retry|skip`: `m` is its row of item-run.ts's table. */
export function itemRunMove(
  m: { move: RunMove; past: string; opts: (keyof RunMoveInput)[] },
  given: string | undefined,
  opts: RunOpts,
): Promise<void> {
  return itemVerb(async () => {
    // Only the options this move takes, and none left empty; the client shapes the body.
    const input: RunMoveInput = {};
    for (const o of m.opts) {
      const v = o === 'steers' ? opts.steerTask : opts[o];
      if (o === 'steers' && typeof v === 'object') input.steers = v;
      else if (o === 'restart' && v === true) input.restart = true;
      else if (
        (o === 'note' || o === 'steer' || o === 'path' || o === 'model' || o === 'effort') &&
        typeof v === 'string' &&
        v !== ''
      )
        input[o] = v;
    }
    if (m.move === 'resume' && input.note !== undefined && input.steer !== undefined)
      throw new BadArgument('--note and --steer are the same note: give one');
    const c = new JigClient();
    const id = await itemId(c, m.move, given);
    const res = await runMove(c, id, m.move, input);
    if (opts.json) printJson(res);
    else printAct(`${m.past} ${res.id} (${res.status})`, nextFor(res));
    return EXIT_OK;
  });
}

/** `jig item unblock [id] [--dependency ID]`. */
export function itemUnblock(
  given: string | undefined,
  opts: { dependency?: string; json?: boolean },
): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, 'unblock', given);
    const res = await unblock(c, id, opts.dependency);
    if (opts.json) {
      printJson(res);
      return EXIT_OK;
    }
    const dropped = res.dropped.length > 0 ? `dropped ${res.dropped.join(', ')}` : 'dropped nothing';
    const waits = res.waiting_on.map((d) => `${d.id} (${d.status})`).join(', ');
    const now =
      res.status === 'blocked'
        ? `it still waits on ${waits}`
        : res.status === 'running' || res.status === 'queued'
          ? `it started (${res.status})`
          : `it is ${res.status}`;
    printAct(`${res.id}: ${dropped}; ${now}`, res.status === 'blocked' ? null : `jig view show ${res.id}`);
    return EXIT_OK;
  });
}
