import {
  getLibrary,
  getLibraryComponent,
  listChains,
  resolvedChain,
  steeringPreview,
  templatesReload,
} from '../../contract/routes/templates.js';
import { testChain } from '../../contract/routes/chain-test.js';
import { testChainEntry } from '../../runtime/chain-test/chain-test-entry.js';
import type { Services } from '../compose.js';
import { reloadHandler } from '../reload-handler.js';
import { routeFile } from '../route-file.js';

/** Chains, the library and steering as the server runs them. */
export const templateRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'templates' | 'config' | 'repos' | 'paths'>) => {
    const svc = inst.templates;

    r.serve(templatesReload, reloadHandler(inst));
    r.serve(listChains, async () => svc.listChains());
    r.serve(resolvedChain, async (req) => svc.resolvedChain(req.params.id));
    r.serve(testChain, async ({ params, body }) =>
      testChainEntry(
        {
          resolvedChain: (id) => svc.resolvedChain(id),
          repos: inst.repos,
          configDir: inst.paths.configDir,
          addonsDir: inst.paths.addonsDir,
          runDir: inst.paths.runDir,
        },
        params.id,
        body,
      ),
    );
    r.serve(getLibrary, async () => svc.library());
    r.serve(getLibraryComponent, async (req) => svc.libraryComponent(req.params.ref));
    r.serve(steeringPreview, async (req) =>
      svc.steeringPreview(req.query.chain, req.query.task, req.query.repo),
    );
  },
);
