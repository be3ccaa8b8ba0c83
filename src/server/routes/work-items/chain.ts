import { getItemChain } from '../../../contract/routes/work-items/chain.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The nodes the board draws for an item. */
export const itemChainRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'items'>) => {
  r.serve(getItemChain, async (req) => inst.items.chainOf(req.params.id));
});
