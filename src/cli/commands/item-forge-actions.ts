import { JigClient } from '../../client/http.js';
import { reopenMergeRequest } from '../../client/merge-requests.js';
import { nextFor, printAct } from '../next-step.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';

/** `jig item reopen-mr`. */
export function itemReopenMr(given: string | undefined, opts: { json?: boolean }): Promise<void> {
  return itemVerb(async () => {
    const c = new JigClient();
    const id = await itemId(c, 'reopen-mr', given);
    const res = await reopenMergeRequest(c, id);
    if (opts.json) printJson(res);
    else
      printAct(`reopened ${res.merge_request.url}; ${res.item.id} is ${res.item.status}`, nextFor(res.item));
    return EXIT_OK;
  });
}
