import { listItemMergeRequests } from '../../../contract/routes/work-items/merge-requests.js';
import type { Instance } from '../../../runtime/instance.js';
import { listMergeRequests } from '../../../store/merge-requests.js';
import { routeFile } from '../../route-file.js';

/** An item's merge requests (issue 20). */
export const mergeRequestRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(listItemMergeRequests, async (req) => {
    const rec = await inst.items.record(req.params.id);
    return { merge_requests: await listMergeRequests(inst.store.db, rec.id) };
  });
});
