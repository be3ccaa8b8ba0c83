import {
  listItemMergeRequests,
  setMrLabels as setMrLabelsRoute,
} from '../../../contract/routes/work-items/merge-requests.js';
import { stamp } from '../../../runtime/clock.js';
import { setMrLabels } from '../../../runtime/forge/mr-labels.js';
import type { Instance } from '../../../runtime/instance.js';
import { listMergeRequests } from '../../../store/merge-requests.js';
import { routeFile } from '../../route-file.js';
import { workerOf } from './draft.js';

/** An item's merge requests (issue 20). */
export const mergeRequestRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(listItemMergeRequests, async (req) => {
    const rec = await inst.items.record(req.params.id);
    return { merge_requests: await listMergeRequests(inst.store.db, rec.id) };
  });
  r.serve(setMrLabelsRoute, async (req) => {
    const worker = workerOf(req.headers) === req.params.id;
    const merge_request = await setMrLabels(
      {
        store: inst.store,
        events: inst.events,
        now: () => stamp(inst.clock),
        record: (id) => inst.items.record(id),
        repo: (path) => inst.repos.find(path),
        timeoutMs: (rec) => ((rec.policy_snapshot ?? inst.config.policy)?.forge_cli_timeout_s ?? 120) * 1000,
      },
      req.params.id,
      req.body.labels,
      worker ? 'agent' : 'human',
    );
    return { merge_request };
  });
});
