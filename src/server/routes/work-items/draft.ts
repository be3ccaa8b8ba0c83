import {
  applyItemDraft,
  deleteItemDraft,
  getItemDraft,
  putItemDraft,
} from '../../../contract/routes/work-items/draft.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/**
 * The header the `jig` client sends from `$JIG_WORK_ITEM_ID` when it runs inside a task of an
 * item: a worker may not read or change its own item's draft. An escalation turn sends none.
 */
export const WORKER_ITEM_HEADER = 'x-jig-work-item';

export function workerOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers[WORKER_ITEM_HEADER];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `/api/work-items/:id/draft`: the item's own chain draft, and its apply. */
export const itemDraftRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'itemDrafts'>) => {
  const drafts = inst.itemDrafts;

  r.serve(getItemDraft, async (req) => drafts.get(req.params.id, workerOf(req.headers)));

  r.serve(putItemDraft, async (req) => drafts.put(req.params.id, req.body.ops, workerOf(req.headers)));

  r.serve(deleteItemDraft, async (req, reply) => {
    await drafts.delete(req.params.id, workerOf(req.headers));
    return reply.code(204).send(null);
  });

  r.serve(applyItemDraft, async (req) => drafts.apply(req.params.id, workerOf(req.headers)));
});
