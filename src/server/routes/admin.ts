import { getDiagnostics } from '../../contract/routes/admin.js';
import { readDiagnostics } from '../../runtime/diagnostics/diagnostics.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';
import { healthAnswer } from './health.js';

/** `/api/admin/…`: about this server as a whole, for the board's About and bug reports. */
export const adminRoutes = routeFile(import.meta.url, (r, inst: Services) => {
  r.serve(getDiagnostics, async () =>
    readDiagnostics({ ...inst, access: () => inst.auth.access.current() }, await healthAnswer(inst)),
  );
});
