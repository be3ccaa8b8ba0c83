import { JigError } from '../../../contract/errors.js';
import { readItemEvents } from '../../../contract/routes/work-items/events.js';
import { readEvents } from '../../../store/events.js';
import { getItem } from '../../../store/work-items.js';
import type { Instance } from '../../../runtime/instance.js';
import { routeFile } from '../../route-file.js';

/** An item's stored events, a page at a time in either direction. */
export const itemEventRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(readItemEvents, async (req) => {
    const q = req.query;
    if (q.after !== undefined && q.before !== undefined) {
      throw new JigError('validation_failed', { reason: 'query: send after or before, not both' });
    }
    if (!(await getItem(inst.store.db, req.params.id)))
      throw new JigError('item_not_found', { id: req.params.id });
    const events = await readEvents(inst.store.db, { workItemId: req.params.id, ...q });
    const first = events[0];
    const last = events[events.length - 1];
    return {
      events,
      next_after: last ? last.seq : (q.after ?? null),
      next_before: first ? first.seq : (q.before ?? null),
    };
  });
});
