import { approveGate, gateArtifact, rejectGate } from '../../../contract/routes/work-items/gates.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The pending gate of an item: approve it, reject it, or read the document it shows. */
export const gateRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'engine' | 'items'>) => {
  r.serve(approveGate, async (req) =>
    inst.items.dto(
      await inst.engine.approve(req.params.id, req.params.gate, req.actor, {
        digest: req.body?.digest ?? undefined,
        request: req.body?.request ?? undefined,
      }),
    ),
  );
  r.serve(rejectGate, async (req) =>
    inst.items.dto(
      await inst.engine.reject(req.params.id, req.params.gate, req.body.note, req.actor, {
        node: req.body.node,
        request: req.body.request,
      }),
    ),
  );
  r.serve(gateArtifact, async (req) => inst.engine.artifact(req.params.id));
});
