import { fileTrigger } from '../../contract/routes/triggers.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** `POST /api/triggers`: a stable route. Files a paused item; a trigger can never start work. */
export const triggerRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'items'>) => {
  r.serve(fileTrigger, async (req, reply) => {
    const b = req.body;
    const { rec, replayed } = await inst.items.trigger(
      {
        title: b.title,
        repo: b.repo,
        ...(b.members !== undefined ? { members: b.members } : {}),
        chain: b.chain,
        chain_template: b.chain_template,
        description: b.description,
        ...(b.after !== undefined ? { after: b.after } : {}),
      },
      req.headers['idempotency-key'],
    );
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return reply.code(201).send(inst.items.dto(rec));
  });
});
