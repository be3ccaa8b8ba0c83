import { JigError } from '../../contract/errors.js';
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
      if (inst.notifySettings.file.url === null) throw new JigError('notify_not_configured', {});
      return inst.notifier.test();
    });
  },
);
