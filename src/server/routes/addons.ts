import {
  addCollection,
  applyUpdate,
  autoUpdate,
  checkUpdates,
  installAddon,
  listAddons,
  patchAddon,
  patchCollection,
  removeCollection,
  reviewInstall,
  reviewUpdate,
  uninstallAddon,
} from '../../contract/routes/addons.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Add-ons and their collections (docs/addons.md). */
export const addonsRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'addons'>) => {
  const a = inst.addons;
  r.serve(listAddons, async () => a.list());
  // A relative directory is the server's own: the CLI sends an absolute path.
  r.serve(addCollection, async (req, reply) =>
    reply.code(201).send(await a.addCollection(req.body.source, req.body.ref, process.cwd())),
  );
  r.serve(patchCollection, async (req) => a.patchCollection(req.params.name, req.body.auto_update));
  r.serve(removeCollection, async (req, reply) => {
    await a.removeCollection(req.params.name);
    return reply.code(204).send(null);
  });
  r.serve(reviewInstall, async (req) => a.reviewInstall(req.body));
  r.serve(installAddon, async (req, reply) => reply.code(201).send(await a.install(req.body)));
  r.serve(checkUpdates, async (req) => a.checkUpdates(req.query.fetch === '1'));
  r.serve(autoUpdate, async () => a.autoUpdate());
  r.serve(reviewUpdate, async (req) => a.reviewUpdate(req.params.namespace, req.query.fetch === '1'));
  r.serve(applyUpdate, async (req) => a.applyUpdate(req.params.namespace, req.body.review));
  r.serve(patchAddon, async (req) => a.patch(req.params.namespace, req.body));
  r.serve(uninstallAddon, async (req, reply) => {
    await a.uninstall(req.params.namespace);
    return reply.code(204).send(null);
  });
});
