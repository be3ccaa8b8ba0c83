import {
  bulkItems,
  createItem,
  duplicateItem,
  getItem,
  listItems,
  patchItem,
} from '../../../contract/routes/work-items/index.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** `/api/work-items` (file, list, bulk moves) and `/api/work-items/:id` (read, change, duplicate). */
export const workItemRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'items' | 'itemRequests'>) => {
    r.serve(createItem, async (req, reply) => {
      const b = req.body;
      const input = { ...b, attachments: b.attachments };
      if (req.query.dry_run === '1' || req.query.dry_run === 'true') return inst.items.dryRun(input, b.start);
      // What an agent files (a worker naming its item, or the MCP tools) says so on the board.
      const source = req.actor === 'agent' ? 'agent' : 'human';
      return reply.code(201).send(await inst.itemRequests.file(input, source, req.actor));
    });

    r.serve(listItems, async (req) => inst.items.list(req.query));

    r.serve(getItem, async (req) => inst.itemRequests.detail(req.params.id));

    r.serve(patchItem, async (req) =>
      inst.itemRequests.view(await inst.items.patch(req.params.id, req.body, req.actor)),
    );

    r.serve(duplicateItem, async (req, reply) =>
      reply.code(201).send(inst.items.dto(await inst.items.duplicate(req.params.id, req.actor))),
    );

    r.serve(bulkItems, async (req) => ({
      results: await inst.itemRequests.bulk(req.body.ids, req.body.action, req.actor, req.body.reason),
    }));
  },
);
