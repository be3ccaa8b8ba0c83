import { isJigError } from '../../../contract/errors.js';
import {
  bulkItems,
  createItem,
  duplicateItem,
  getItem,
  listItems,
  patchItem,
} from '../../../contract/routes/work-items/index.js';
import type { Instance } from '../../../runtime/instance.js';
import { routeFile } from '../../route-file.js';
import { issuesOf } from '../../../store/item-issues.js';

/** `/api/work-items` (file, list, bulk moves) and `/api/work-items/:id` (read, change, duplicate). */
export const workItemRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(createItem, async (req, reply) => {
    const b = req.body;
    const input = { ...b, attachments: b.attachments };
    if (req.query.dry_run === '1' || req.query.dry_run === 'true') return inst.items.dryRun(input, b.start);
    const rec = await inst.items.create(input, 'human', 'human');
    const issues = await issuesOf(inst.store.db, rec.id);
    const filed = b.start ? await inst.engine.resume(rec.id, undefined, 'human') : rec;
    return reply.code(201).send({ ...inst.items.dto(filed), ...(issues.length > 0 ? { issues } : {}) });
  });

  r.serve(listItems, async (req) => inst.items.list(req.query));

  r.serve(getItem, async (req) => {
    const item = inst.items.dto(await inst.items.record(req.params.id));
    const mrs = await inst.mergeRequests.list(item.id);
    const issues = await issuesOf(inst.store.db, item.id);
    return {
      ...item,
      ...(issues.length > 0 ? { issues } : {}),
      ...(mrs.length > 0 ? { merge_requests: mrs } : {}),
    };
  });

  r.serve(patchItem, async (req) => inst.items.dto(await inst.items.patch(req.params.id, req.body, 'human')));

  r.serve(duplicateItem, async (req, reply) =>
    reply.code(201).send(inst.items.dto(await inst.items.duplicate(req.params.id, 'human'))),
  );

  r.serve(bulkItems, async (req) => {
    const results = [];
    for (const id of req.body.ids) {
      try {
        const rec =
          req.body.action === 'pause'
            ? await inst.engine.pause(id, 'human')
            : await inst.items.move(id, req.body.action, 'human', req.body.reason);
        results.push({ id, ok: true, status: 200, item: inst.items.dto(rec), detail: null, code: null });
      } catch (err) {
        if (!isJigError(err)) throw err;
        results.push({ id, ok: false, status: err.status, item: null, detail: err.message, code: err.code });
      }
    }
    return { results };
  });
});
