import { JigError } from '../../contract/errors.js';
import { reindex, reindexState, search } from '../../contract/routes/search.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Full-text search and its rescan. */
export const searchRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'repos' | 'search'>) => {
  r.serve(search, async ({ query }) => inst.search.search(query.q, query.limit, query.kind));
  r.serve(reindexState, async () => inst.search.state);
  r.serve(reindex, async (req, reply) => {
    const repo = req.query.repo ?? null;
    if (repo !== null && !inst.repos.find(repo)) throw new JigError('repo_unknown', { path: repo });
    return reply
      .code(202)
      .send(inst.search.reindex(repo === null ? null : (inst.repos.find(repo)?.path ?? repo)));
  });
});
