import { getPolicy, putPolicy } from '../../contract/routes/policy.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** policy.yaml, read and saved with an ETag so two editors cannot overwrite each other. */
export const policyRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'policySettings'>) => {
  const svc = inst.policySettings;

  r.serve(getPolicy, async (_req, reply) => {
    const { answer, etag } = await svc.get();
    return reply.header('etag', etag).send(answer);
  });

  r.serve(putPolicy, async (req, reply) => {
    const { saved, etag } = await svc.put(req.body, req.headers['if-match']);
    req.log.info({ keys: Object.keys(req.body) }, 'policy.yaml saved and applied');
    return reply.header('etag', etag).send(saved);
  });
});
