import {
  pauseItem,
  resumeItem,
  retryItem,
  skipItem,
  steerItem,
  unblockItem,
} from '../../../contract/routes/work-items/run.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The engine's moves on one item: start, stop, steer, rerun and skip. */
export const runRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'engine' | 'items' | 'itemRequests'>) => {
    r.serve(resumeItem, async (req) =>
      inst.itemRequests.view(
        await inst.engine.resume(req.params.id, req.body?.note, req.actor, req.body?.steers),
      ),
    );
    r.serve(pauseItem, async (req) => inst.items.dto(await inst.engine.pause(req.params.id, req.actor)));
    r.serve(steerItem, async (req) =>
      inst.items.dto(await inst.engine.steer(req.params.id, req.body.note, req.actor)),
    );
    r.serve(retryItem, async (req) =>
      inst.itemRequests.view(
        await inst.engine.retry(req.params.id, req.actor, {
          ...(req.body?.path ? { path: req.body.path } : {}),
          ...(req.body?.steer ? { steer: req.body.steer } : {}),
          ...(req.body?.restart ? { restart: true } : {}),
          ...(req.body?.task_config ? { task_config: req.body.task_config } : {}),
        }),
      ),
    );
    r.serve(skipItem, async (req) =>
      inst.items.dto(await inst.engine.skip(req.params.id, req.body?.note, req.actor, req.body?.path)),
    );
    r.serve(unblockItem, async (req) => {
      const u = await inst.engine.unblock(req.params.id, req.body?.dependency, req.actor);
      return { id: u.rec.id, dropped: u.dropped, waiting_on: u.waitingOn, status: u.rec.status };
    });
  },
);
