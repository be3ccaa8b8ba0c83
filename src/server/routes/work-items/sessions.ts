import { listSessions, readSessionLog } from '../../../contract/routes/work-items/sessions.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** Task sessions of an item and their output logs. */
export const sessionRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'sessions'>) => {
  r.serve(listSessions, async (req) => ({ sessions: await inst.sessions.list(req.params.id) }));

  r.serve(readSessionLog, async (req, reply) => {
    const part = await inst.sessions.log(req.params.id, req.params.session, req.query);
    void reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('x-log-offset', String(part.start))
      .header('x-log-size', String(part.size));
    return part.text;
  });
});
