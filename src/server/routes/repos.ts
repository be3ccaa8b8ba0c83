import { JigError } from '../../contract/errors.js';
import {
  checkRepoForge,
  connectRepo,
  disconnectRepo,
  listRepos,
  patchRepo,
  probeRepo,
} from '../../contract/routes/repos.js';
import { checkForge } from '../../runtime/forge/for-repo.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Connected repositories: list, probe, connect, change, disconnect. */
export const repoRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'repos'>) => {
  r.serve(listRepos, async () => inst.repos.list());
  r.serve(probeRepo, async (req) => inst.repos.probe(req.body.path));
  r.serve(checkRepoForge, async (req) => {
    const repo = inst.repos.find(req.query.path);
    if (!repo) throw new JigError('repo_unknown', { path: req.query.path });
    return checkForge(repo);
  });
  r.serve(connectRepo, async (req, reply) => {
    const { repo, created } = await inst.repos.connect(req.body);
    return reply.code(created ? 201 : 200).send(repo);
  });
  r.serve(patchRepo, async (req) => inst.repos.patch(req.query.path, req.body));
  r.serve(disconnectRepo, async (req, reply) => {
    await inst.repos.disconnect(req.query.path);
    return reply.code(204).send(null);
  });
});
