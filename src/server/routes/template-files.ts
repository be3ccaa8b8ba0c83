import { getChainFile, getLibraryFile, putChainFile, putLibrary } from '../../contract/routes/templates.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** library.yaml and chain files as text: read with an ETag, saved whole after the reload's checks. */
export const templateFileRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'templateFiles'>) => {
  const files = inst.templateFiles;

  r.serve(getLibraryFile, async (_req, reply) => {
    const { etag, ...answer } = files.read(null);
    return reply.header('etag', etag).send(answer);
  });
  r.serve(putLibrary, async (req, reply) => {
    const { etag, ...saved } = await files.save(null, req.body.text, req.headers['if-match']);
    req.log.info({ file: saved.file }, 'library.yaml saved and reloaded');
    return reply.header('etag', etag).send(saved);
  });
  r.serve(getChainFile, async (req, reply) => {
    const { etag, ...answer } = files.read(req.params.id);
    return reply.header('etag', etag).send(answer);
  });
  r.serve(putChainFile, async (req, reply) => {
    const { etag, ...saved } = await files.save(req.params.id, req.body.text, req.headers['if-match']);
    req.log.info({ file: saved.file }, 'chain saved and reloaded');
    return reply.header('etag', etag).send(saved);
  });
});
