import { recordProgress } from '../../../contract/routes/work-items/progress.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** A worker says which task of the plan it started (posted by agents, not people). */
export const progressRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'engine'>) => {
  r.serve(recordProgress, async (req) => inst.engine.progress(req.params.id, req.body.task, 'agent'));
});
