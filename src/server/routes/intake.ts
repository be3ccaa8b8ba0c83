import { JigError } from '../../contract/errors.js';
import { getIntake, listIntakeChecks, pollIntake } from '../../contract/routes/intake.js';
import type { Instance } from '../../runtime/instance.js';
import { listIntakeChecks as readChecks } from '../../store/intake-checks.js';
import { routeFile } from '../route-file.js';

/** The running intake settings and schedules, the auto-intake polls recorded, and a poll on demand. */
export const intakeRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(getIntake, async () => inst.schedules.view(inst.repos, inst.config));
  r.serve(listIntakeChecks, async ({ query }) => readChecks(inst.store.db, query.limit));
  r.serve(pollIntake, async () => {
    if (!inst.intake.enabled) throw new JigError('intake_disabled', {});
    return inst.intake.poll();
  });
});
