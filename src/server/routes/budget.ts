import { budgetToday } from '../../contract/routes/budget.js';
import type { Instance } from '../../runtime/instance.js';
import { routeFile } from '../route-file.js';

/** Spend across all items against the daily cap. */
export const budgetRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(budgetToday, async () => inst.items.budgetToday());
});
