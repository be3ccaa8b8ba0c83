import { escalateItem, stopEscalation } from '../../../contract/routes/work-items/escalate.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** A message to an agent that helps with a stopped item, and the end of its turn. */
export const escalateRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'engine'>) => {
  r.serve(escalateItem, async (req, reply) => {
    const out = await inst.engine.escalate(
      req.params.id,
      req.body.message,
      req.actor,
      req.body.new_thread === true,
    );
    return reply.code(202).send({ work_item_id: req.params.id, ...out });
  });
  r.serve(stopEscalation, async (req) => ({
    work_item_id: req.params.id,
    ...(await inst.engine.stopEscalation(req.params.id)),
  }));
});
