import {
  listItemMergeRequests,
  reopenMr,
  setMrLabels,
} from '../../../contract/routes/work-items/merge-requests.js';
import { JigError } from '../../../contract/errors.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';
import { workerOf } from './draft.js';

/** An item's merge requests (issue 20). */
export const mergeRequestRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'engine' | 'items' | 'mergeRequests'>) => {
    r.serve(listItemMergeRequests, async (req) => ({
      merge_requests: await inst.mergeRequests.list(req.params.id),
    }));
    r.serve(setMrLabels, async (req) => {
      return {
        merge_request: await inst.mergeRequests.setLabels(req.params.id, req.body.labels, req.actor),
      };
    });
    r.serve(reopenMr, async (req) => {
      if (workerOf(req.headers) === req.params.id)
        throw new JigError('worker_own_item', { what: 'reopen the merge request', id: req.params.id });
      const merge_request = await inst.mergeRequests.reopen(req.params.id);
      return { merge_request, item: inst.items.dto(await inst.engine.retry(req.params.id, req.actor)) };
    });
  },
);
