import { getIntake } from '../../contract/routes/intake.js';
import type { Instance } from '../../runtime/instance.js';
import { routeFile } from '../route-file.js';

/** The running intake settings and schedules. */
export const intakeRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(getIntake, async () => inst.schedules.view(inst.repos, inst.config));
});
