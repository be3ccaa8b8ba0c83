import { isDraftArea } from '../../contract/drafts/areas.js';
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
import type { DraftArea } from '../../contract/drafts/areas.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { ConfigDrafts, configArea } from '../../runtime/drafts/config-drafts.js';
import { DraftOps } from '../../runtime/drafts/draft-ops.js';
import { DraftPublisher } from '../../runtime/drafts/publish.js';
import type { Instance } from '../../runtime/instance.js';
import { listDrafts as storedDrafts } from '../../store/drafts.js';
import { routeFile } from '../route-file.js';

/**
 * What a publish of each area applies (spec drafts.md, "Areas and keys"): library and chains
 * reload together; policy reloads alone (a harnesses draft only when it holds policy.yaml);
 * intake rereads its file and the poller follows; repos.yaml is read when needed.
 */
function applyArea(inst: Instance, area: DraftArea, files: readonly string[]): ReloadAnswer | null {
  switch (area) {
    case 'chains':
    case 'library':
      return inst.config.reload();
    case 'policy':
      return inst.config.reloadPolicyOnly();
    case 'harnesses':
      return files.includes('policy.yaml') ? inst.config.reloadPolicyOnly() : null;
    case 'intake':
      return inst.config.reloadIntakeOnly();
    case 'repos':
      return null;
  }
}

/** The drafts protocol behind the Templates and Settings editors (spec drafts.md): every area. */
export const draftRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  const drafts = new ConfigDrafts({
    store: inst.store,
    configDir: inst.paths.configDir,
    addonsDir: inst.paths.addonsDir,
    clock: inst.clock,
  });
  const ops = new DraftOps(drafts);
  // Read at each publish, so the reload is the server's own at that moment.
  const publisher = new DraftPublisher(drafts, inst.paths.configDir, (area, files) =>
    applyArea(inst, area, files),
  );

  r.serve(listDrafts, async () => {
    const rows = await storedDrafts(inst.store.db);
    return rows.flatMap((d) =>
      isDraftArea(d.area)
        ? [
            {
              area: d.area,
              key: d.key,
              files: Object.keys(d.files).sort(),
              changes: d.changes,
              problems: d.problems,
              updated_at: d.updated_at,
            },
          ]
        : [],
    );
  });

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
});
