import { resolve } from 'node:path';
import { JigClient } from '../../client/http.js';
import { reindexProgress, startReindex } from '../../client/search.js';
import type { ReindexState } from '../../contract/search.js';
import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';

/** `jig admin reindex`. */
export function adminReindex(opts: { repo?: string; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    let s: ReindexState = await startReindex(client, opts.repo ? resolve(opts.repo) : undefined);
    let shown = -1;
    while (s.state === 'running') {
      if (!opts.json && process.stderr.isTTY && s.items_done !== shown) {
        process.stderr.write(`\rreindexing: ${s.items_done} of ${s.items_total} items`);
        shown = s.items_done;
      }
      await new Promise((r) => setTimeout(r, 200));
      s = await reindexProgress(client);
    }
    if (shown >= 0) process.stderr.write('\n');
    if (opts.json) printJson(s);
    else if (s.state === 'done')
      process.stdout.write(`reindexed ${s.items_done} item(s)${s.repo ? ` of ${s.repo}` : ''}\n`);
    else process.stderr.write(`jig: the rescan failed: ${s.error ?? 'unknown error'}\n`);
    return s.state === 'done' ? EXIT_OK : EXIT_FAIL;
  });
}
