import { getAnalytics } from '../../contract/routes/analytics.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Analytics over the sessions and events already stored. */
export const analyticsRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'analytics'>) => {
  r.serve(getAnalytics, async ({ query }) => inst.analytics.report(query));
});
