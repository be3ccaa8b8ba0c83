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
import { JigError } from '../../contract/errors.js';
import type { Services } from '../compose.js';
import { reloadHandler } from '../reload-handler.js';
import { routeFile } from '../route-file.js';

/** Chains, the library and steering as the server runs them. */
export const templateRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'templates' | 'config' | 'repos' | 'paths' | 'configDrafts' | 'recordings'>) => {
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
          recording: (name) => inst.recordings.read(name),
          draftFiles: async (id) => {
            const view = await inst.configDrafts.get('chains', id);
            if (!view.draft) throw new JigError('not_found', { what: `a draft of chain ${id}` });
            const problem = view.result.problems[0];
            if (problem)
              throw new JigError('validation_failed', {
                reason: `draft: ${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`,
              });
            return view.files;
          },
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
