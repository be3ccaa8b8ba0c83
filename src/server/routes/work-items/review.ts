import {
  clearViewedMark,
  itemCommits,
  itemCompare,
  itemDiff,
  markViewed,
} from '../../../contract/routes/work-items/review.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** Reviewing an item's changes: its diff, compares between attempts, viewed marks. */
export const reviewRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'review'>) => {
  r.serve(itemDiff, async (req) => inst.review.diff(req.params.id, req.query));
  r.serve(itemCommits, async (req) => inst.review.commits(req.params.id));
  r.serve(itemCompare, async (req) => inst.review.compare(req.params.id, req.query));
  r.serve(markViewed, async (req) => inst.review.markViewed(req.params.id, req.body.path, true));
  r.serve(clearViewedMark, async (req) => inst.review.markViewed(req.params.id, req.body.path, false));
});
