import { JigError } from '../../contract/errors.js';
import { formatProblem } from '../../contract/problems.js';
import { getNotify, putNotify, testNotify } from '../../contract/routes/notify.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Notification settings and a test message. */
export const notifyRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'notifier' | 'notifySettings'>) => {
    r.serve(getNotify, async () => inst.notifySettings.view());
    r.serve(putNotify, async ({ body }) => inst.notifySettings.save(body));
    r.serve(testNotify, async () => {
      // A file that does not load runs as the defaults (no URL): say so, not "no URL is set".
      const refused = inst.notifySettings.problems;
      if (refused.length > 0)
        throw new JigError('notify_refused', { reason: refused.map(formatProblem).join('; ') });
      if (inst.notifySettings.file.url === null) throw new JigError('notify_not_configured', {});
      return inst.notifier.test();
    });
  },
);
