import { nextFor, printAct } from '../next-step.js';
import { JigClient } from '../../client/http.js';
import { runMove, type RunMove, type RunMoveInput } from '../../client/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';

export interface RunOpts extends RunMoveInput {
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
      const v = opts[o];
      if (typeof v === 'string' && v !== '') input[o] = v;
    }
    const c = new JigClient();
    const id = await itemId(c, m.move, given);
    const res = await runMove(c, id, m.move, input);
    if (opts.json) printJson(res);
    else printAct(`${m.past} ${res.id} (${res.status})`, nextFor(res));
    return EXIT_OK;
  });
}
