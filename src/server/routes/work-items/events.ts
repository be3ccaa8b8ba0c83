import { readItemEvents } from '../../../contract/routes/work-items/events.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** An item's stored events, a page at a time in either direction. */
export const itemEventRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'itemRequests'>) => {
  r.serve(readItemEvents, async (req) => inst.itemRequests.events(req.params.id, req.query));
});
