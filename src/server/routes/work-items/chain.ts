import { getItemChain } from '../../../contract/routes/work-items/chain.js';
import type { Instance } from '../../../runtime/instance.js';
import { routeFile } from '../../route-file.js';

/** The nodes the board draws for an item. */
export const itemChainRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(getItemChain, async (req) => inst.items.chainOf(req.params.id));
});
