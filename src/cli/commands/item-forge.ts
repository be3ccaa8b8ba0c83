import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { reopenMergeRequest } from '../../client/merge-requests.js';
import { nextFor, printAct } from '../next-step.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';

/** `jig item reopen-mr`: a person's answer to an item stopped on a merge request closed on the forge. */
export function registerItemForge(item: Command): void {
  item
    .command('reopen-mr')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description(
      "reopen the item's merge request closed on the forge without merging, then retry the item (stop kind mr_closed)",
    )
    .option('--json', 'print the API answer')
    .action((given: string | undefined, opts: { json?: boolean }) =>
      itemVerb(async () => {
        const c = new JigClient();
        const id = await itemId(c, 'reopen-mr', given);
        const res = await reopenMergeRequest(c, id);
        if (opts.json) printJson(res);
        else
          printAct(
            `reopened ${res.merge_request.url}; ${res.item.id} is ${res.item.status}`,
            nextFor(res.item),
          );
        return EXIT_OK;
      }),
    );
}
