import { cleanupStorage, getStorage } from '../../contract/routes/storage.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Disk use and the clean-up of ended items' worktrees. */
export const storageRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'storage'>) => {
  r.serve(getStorage, async () => inst.storage.report());
  r.serve(cleanupStorage, async ({ query }) => inst.storage.cleanup(query.dry_run, query.older_than_days));
});
