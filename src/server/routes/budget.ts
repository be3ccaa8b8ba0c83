import { budgetToday } from '../../contract/routes/budget.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Spend across all items against the daily cap. */
export const budgetRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'items'>) => {
  r.serve(budgetToday, async () => inst.items.budgetToday());
});
