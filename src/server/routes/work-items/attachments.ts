import { readAttachment } from '../../../contract/routes/work-items/attachments.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The spec or plan attached at intake, as the markdown it was. */
export const attachmentRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'items'>) => {
  r.serve(readAttachment, async (req, reply) => {
    const a = await inst.items.attachment(req.params.id, req.params.kind);
    void reply.header('content-type', 'text/markdown; charset=utf-8');
    return a.text;
  });
});
