import { JigError } from '../../../contract/errors.js';
import {
  abandonItem,
  archiveItem,
  cancelItem,
  cancelPreview,
  completeItem,
  restoreItem,
} from '../../../contract/routes/work-items/moves.js';
import type { Move } from '../../../core/items/moves.js';
import type { Services } from '../../compose.js';
import { routeFile, type Handler } from '../../route-file.js';

/** The moves that end, archive or bring back an item, and the preview of a cancel. */
export const moveRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'items' | 'itemRequests'>) => {
  r.serve(cancelPreview, async (req) => inst.items.cancelPreview(req.params.id));

  // One handler for the five; each route has its own description (and literal path) in contract/.
  const move =
    (m: Move, reasonRequired = false): Handler<typeof cancelItem> =>
    async (req) => {
      const reason = req.body?.reason?.trim();
      if (reasonRequired && !reason)
        throw new JigError('validation_failed', { reason: `body.reason: say why the item is ${m}ed` });
      return inst.itemRequests.moved(await inst.items.move(req.params.id, m, req.actor, reason), m);
    };
  r.serve(cancelItem, move('cancel'));
  r.serve(completeItem, async (req) => {
    const b = req.body;
    const rec = await inst.items.move(
      req.params.id,
      'complete',
      req.actor,
      b?.reason?.trim(),
      b?.close_beads,
    );
    return inst.itemRequests.moved(rec, 'complete');
  });
  r.serve(archiveItem, move('archive'));
  r.serve(restoreItem, move('restore'));
  r.serve(abandonItem, move('abandon', true));
});
