import { JigError } from '../../contract/errors.js';
import {
  discardDraft,
  draftOps,
  getDraft,
  getFragment,
  listDrafts,
  publishDraft,
  putDraftFile,
  rebaseDraft,
  undoDraft,
} from '../../contract/routes/drafts.js';
import { configArea } from '../../runtime/drafts/config-drafts.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** The drafts protocol behind the Templates and Settings editors (spec drafts.md): every area. */
export const draftRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'configDrafts' | 'draftOps' | 'draftPublisher'>) => {
    const { configDrafts: drafts, draftOps: ops, draftPublisher: publisher } = inst;

    r.serve(listDrafts, async () => drafts.list());

    r.serve(getDraft, async (req) => {
      const { area, key } = req.params;
      return drafts.get(configArea(area, key), key);
    });

    r.serve(getFragment, async (req) => {
      const { area, key } = req.params;
      return ops.fragment(configArea(area, key), key, req.query.path);
    });

    r.serve(putDraftFile, async (req) => {
      const { area, key, file } = req.params;
      return drafts.putFile(configArea(area, key), key, file, req.body.text);
    });

    r.serve(draftOps, async (req) => {
      const { area, key } = req.params;
      const preview = req.query.preview === '1' || req.query.preview === 'true';
      return ops.apply(configArea(area, key), key, req.body.ops, preview);
    });

    r.serve(undoDraft, async (req) => {
      const { area, key } = req.params;
      const undone = await drafts.undo(configArea(area, key), key);
      if (!undone) throw new JigError('draft_nothing_to_undo', { area, key });
      return undone;
    });

    r.serve(rebaseDraft, async (req) => {
      const { area, key } = req.params;
      const rebased = await drafts.rebase(configArea(area, key), key);
      if (!rebased) throw new JigError('not_found', { what: `a ${area} draft of ${key}` });
      return rebased;
    });

    r.serve(publishDraft, async (req) => {
      const { area, key } = req.params;
      return publisher.publish(configArea(area, key), key);
    });

    r.serve(discardDraft, async (req, reply) => {
      const { area, key } = req.params;
      if (!(await drafts.discard(configArea(area, key), key))) {
        throw new JigError('not_found', { what: `a ${area} draft of ${key}` });
      }
      return reply.code(204).send(null);
    });
  },
);
