import { JigClient } from '../../client/http.js';
import { recordItemRun } from '../../client/recordings.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';

/** `jig item record [ID]`: the item's run kept as a recording a chain test replays. */
export function itemRecord(given: string | undefined, opts: { json?: boolean }): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, 'record', given);
    const r = await recordItemRun(c, id);
    if (opts.json) printJson(r);
    else {
      process.stdout.write(
        `recorded ${id} as ${r.name}: ${r.sessions} session(s), ${r.gates} gate decision(s)\n  ${r.path}\n` +
          `replay it: jig chain test CHAIN --replay ${r.name}\n`,
      );
      if (r.not_captured > 0)
        process.stdout.write(
          `  ${r.not_captured} agent session(s) without their changes (run before recordings, or lost): replayed with none\n`,
        );
    }
    return EXIT_OK;
  });
}
