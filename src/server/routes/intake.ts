import { JigError } from '../../contract/errors.js';
import { getIntake, listIntakeChecks, pollIntake } from '../../contract/routes/intake.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** The running intake settings and schedules, the auto-intake polls recorded, and a poll on demand. */
export const intakeRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'config' | 'intake' | 'repos' | 'schedules'>) => {
    r.serve(getIntake, async () => inst.schedules.view(inst.repos, inst.config));
    r.serve(listIntakeChecks, async ({ query }) => inst.intake.checks(query.limit));
    r.serve(pollIntake, async () => {
      if (!inst.intake.enabled) throw new JigError('intake_disabled', {});
      return inst.intake.poll();
    });
  },
);
