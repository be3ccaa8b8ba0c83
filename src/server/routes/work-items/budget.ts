import { raiseBudget } from '../../../contract/routes/work-items/budget.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The item's own dollar cap. */
export const itemBudgetRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'engine' | 'items'>) => {
  r.serve(raiseBudget, async (req) =>
    inst.items.dto(await inst.engine.raiseBudget(req.params.id, req.body.cap_usd, req.actor)),
  );
});
