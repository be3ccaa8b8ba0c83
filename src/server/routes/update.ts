import { checkUpdate, getUpdate } from '../../contract/routes/update.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** `jig admin update` asks here; the server never installs anything itself. */
export const updateRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'updates'>) => {
  const checker = inst.updates;
  r.serve(getUpdate, async (req) => checker.cached(req.query.channel));
  r.serve(checkUpdate, async (req) => checker.check(req.body?.channel ?? 'stable'));
});
