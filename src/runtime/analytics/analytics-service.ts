import type { AnalyticsAnswer, AnalyticsQuery } from '../../contract/analytics.js';
import { JigError } from '../../contract/errors.js';
import { aggregate, outcomes } from '../../core/analytics/aggregate.js';
import type { Store } from '../../store/database.js';
import { nodeEventCounts, sessionsBetween } from '../../store/analytics.js';
import type { Clock } from '../clock.js';

const DAY_MS = 86_400_000;

/** A query bound as an instant: a day starts at its UTC midnight, or ends at the next one (`end`). */
function instant(s: string, end: boolean): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return Date.parse(`${s}T00:00:00Z`) + (end ? DAY_MS : 0);
  return Date.parse(s);
}

function outOfRange(field: string, message: string): JigError {
  return new JigError(
    'validation_failed',
    { reason: `query.${field}: ${message}` },
    { issues: [{ field: `query.${field}`, message }] },
  );
}

/** Analytics over the sessions and events already stored (the last 30 days unless told). */
export class AnalyticsService {
  constructor(private readonly d: { store: Store; clock: Clock }) {}

  async report(query: AnalyticsQuery): Promise<AnalyticsAnswer> {
    const to = query.to === undefined ? this.d.clock.now() : instant(query.to, true);
    const from = query.from === undefined ? to - 30 * DAY_MS : instant(query.from, false);
    // Dates a JavaScript Date cannot hold (year 275 760 and beyond) are refused, not thrown.
    for (const [field, at] of [
      ['to', to],
      ['from', from],
    ] as const)
      if (!Number.isFinite(at) || Math.abs(at) > 8.64e15) throw outOfRange(field, 'out of range');
    if (from >= to) throw outOfRange('from', 'must be before to');
    const [fromIso, toIso] = [new Date(from).toISOString(), new Date(to).toISOString()];
    const sessions = await sessionsBetween(this.d.store.db, fromIso, toIso);
    const counts = await nodeEventCounts(this.d.store.db, fromIso, toIso);
    return {
      from: fromIso,
      to: toIso,
      group_by: query.group_by,
      ...aggregate(sessions, query.group_by),
      nodes: outcomes(counts),
    };
  }
}
