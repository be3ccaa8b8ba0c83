import { policyPreview } from '../../contract/routes/policy-preview.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** The policy preview (spec drafts.md, "Reading drafts"): the caps a policy draft gives a chain. */
export const policyPreviewRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'policyPreview'>) => {
  r.serve(policyPreview, async (req) => inst.policyPreview.preview(req.params.key, req.query.chain));
});
