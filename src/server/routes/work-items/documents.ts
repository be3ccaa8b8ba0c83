import type { FastifyRequest } from 'fastify';
import {
  itemArtifact,
  itemDocuments,
  listEditors,
  openDocument,
  openPendingArtifact,
  openTaskArtifact,
  openWorktree,
} from '../../../contract/routes/work-items/documents.js';
import { JigError } from '../../../contract/errors.js';
import { isLoopbackAddress } from '../../../core/perimeter/hosts.js';
import type { Services } from '../../compose.js';
import { findEditors } from '../../../runtime/review/editors.js';
import { routeFile } from '../../route-file.js';

/**
 * Opening starts a program as the server's user: only a caller on this machine may, whatever the
 * bind and credentials (a password lets a remote person act on items, not run programs here).
 */
function localOnly(req: FastifyRequest, what: string): void {
  if (!isLoopbackAddress(req.socket.remoteAddress ?? '')) throw new JigError('local_only', { what });
}

/** An item's documents, and editors that open them (or its worktree) on this machine. */
export const documentRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'documents'>) => {
  r.serve(itemDocuments, async (req) => inst.documents.list(req.params.id));
  r.serve(itemArtifact, async (req) => inst.documents.read(req.params.id, req.params.kind));
  r.serve(listEditors, async () => findEditors());
  r.serve(openDocument, async (req) => {
    localOnly(req, 'opening a document');
    return inst.documents.openById(req.params.id, req.body?.editor);
  });
  r.serve(openPendingArtifact, async (req) => {
    localOnly(req, 'opening a document');
    return inst.documents.openPending(req.params.id, req.body?.editor);
  });
  r.serve(openTaskArtifact, async (req) => {
    localOnly(req, 'opening a document');
    return inst.documents.open(req.params.id, req.params.kind, req.body?.editor);
  });
  r.serve(openWorktree, async (req) => {
    localOnly(req, 'opening the worktree');
    return inst.documents.openWorktree(req.params.id, req.body?.editor);
  });
});
