import { JigError } from '../../contract/errors.js';
import { getAnalytics } from '../../contract/routes/analytics.js';
import { aggregate, outcomes } from '../../core/analytics/aggregate.js';
import type { Instance } from '../../runtime/instance.js';
import { nodeEventCounts, sessionsBetween } from '../../store/analytics.js';
import { routeFile } from '../route-file.js';

const DAY_MS = 86_400_000;

/** A query bound as an instant: a day starts at its UTC midnight, or ends at the next one (`end`). */
function instant(s: string, end: boolean): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return Date.parse(`${s}T00:00:00Z`) + (end ? DAY_MS : 0);
  return Date.parse(s);
}

/** Analytics over the sessions and events already stored. */
export const analyticsRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  r.serve(getAnalytics, async ({ query }) => {
    const to = query.to === undefined ? inst.clock.now() : instant(query.to, true);
    const from = query.from === undefined ? to - 30 * DAY_MS : instant(query.from, false);
    // Dates a JavaScript Date cannot hold (year 275 760 and beyond) are refused, not thrown.
    for (const [field, at] of [
      ['to', to],
      ['from', from],
    ] as const)
      if (!Number.isFinite(at) || Math.abs(at) > 8.64e15)
        throw new JigError(
          'validation_failed',
          { reason: `query.${field}: out of range` },
          { issues: [{ field: `query.${field}`, message: 'out of range' }] },
        );
    if (from >= to)
      throw new JigError(
        'validation_failed',
        { reason: 'query.from: must be before to' },
        { issues: [{ field: 'query.from', message: 'must be before to' }] },
      );
    const [fromIso, toIso] = [new Date(from).toISOString(), new Date(to).toISOString()];
    const sessions = await sessionsBetween(inst.store.db, fromIso, toIso);
    const counts = await nodeEventCounts(inst.store.db, fromIso, toIso);
    return {
      from: fromIso,
      to: toIso,
      group_by: query.group_by,
      ...aggregate(sessions, query.group_by),
      nodes: outcomes(counts),
    };
  });
});
