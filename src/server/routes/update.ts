import { checkUpdate, getUpdate } from '../../contract/routes/update.js';
import type { Instance } from '../../runtime/instance.js';
import { UpdateChecker } from '../../runtime/update/checker.js';
import { routeFile } from '../route-file.js';

/** `jig admin update` asks here; the server never installs anything itself. */
export const updateRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  const checker = new UpdateChecker(inst.version);
  r.serve(getUpdate, async (req) => checker.cached(req.query.channel));
  r.serve(checkUpdate, async (req) => checker.check(req.body?.channel ?? 'stable'));
});
