import { AnalyticsAnswer, AnalyticsQuery } from '../analytics.js';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';

export const getAnalytics = defineRoute({
  operationId: 'getAnalytics',
  method: 'GET',
  path: '/api/analytics',
  summary: 'Cost, tokens and run time of the sessions in a range, grouped; how each node’s runs ended',
  description:
    'Sessions started in [from, to), grouped by `group_by` (node, chain, repo, harness, model, ' +
    'week, day), most expensive first (weeks and days in order), with totals; cost split into ' +
    'reported and estimated, and the agent sessions with no known cost counted apart. `nodes` ' +
    'gives each node’s runs, completions and stops from the events. 422 names a bad `from`/`to`.',
  tags: ['analytics'],
  query: AnalyticsQuery,
  responses: { 200: AnalyticsAnswer, 422: ErrorBodySchema },
});
