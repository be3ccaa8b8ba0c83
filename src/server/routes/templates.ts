import {
  getLibrary,
  getLibraryComponent,
  listChains,
  resolvedChain,
  steeringPreview,
  templatesReload,
} from '../../contract/routes/templates.js';
import { TemplatesService } from '../../runtime/config/templates-service.js';
import type { Instance } from '../../runtime/instance.js';
import { reloadHandler } from '../reload-handler.js';
import { routeFile } from '../route-file.js';

/** Chains, the library and steering as the server runs them. */
export const templateRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  const svc = new TemplatesService(inst.paths.configDir, inst.config, (path) => inst.repos.find(path));

  r.serve(templatesReload, reloadHandler(inst));
  r.serve(listChains, async () => svc.listChains());
  r.serve(resolvedChain, async (req) => svc.resolvedChain(req.params.id));
  r.serve(getLibrary, async () => svc.library());
  r.serve(getLibraryComponent, async (req) => svc.libraryComponent(req.params.ref));
  r.serve(steeringPreview, async (req) =>
    svc.steeringPreview(req.query.chain, req.query.task, req.query.repo),
  );
});
