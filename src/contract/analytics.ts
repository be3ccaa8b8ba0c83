import { z } from 'zod';

/*
 * `GET /api/analytics` (docs/analytics.md): cost, tokens and run time of the sessions stored,
 * grouped one way, and how each node's runs ended, from the events.
 */

export const ANALYTICS_GROUPS = ['node', 'chain', 'repo', 'harness', 'model', 'week', 'day'] as const;
export const AnalyticsGroup = z.enum(ANALYTICS_GROUPS);
export type AnalyticsGroup = z.infer<typeof AnalyticsGroup>;

/** A day (`2026-11-01`, from its start) or an instant with an offset. */
const When = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}$/.test(s)
        ? !Number.isNaN(Date.parse(`${s}T00:00:00Z`))
        : /T.*(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
    'a date (YYYY-MM-DD) or an ISO 8601 time with its offset',
  );

export const AnalyticsQuery = z.object({
  from: When.optional().describe('start, inclusive (UTC day or ISO time); default 30 days before `to`'),
  to: When.optional().describe('end, exclusive (a day means its end); default now'),
  group_by: AnalyticsGroup.default('node').describe(
    'node, chain, repo, harness, model, week (Mondays, UTC) or day',
  ),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

export const AnalyticsFigures = z.object({
  sessions: z.number().int().describe('task sessions started in the range (agents and commands)'),
  agent_sessions: z.number().int(),
  items: z.number().int().describe('distinct work items they ran for'),
  cost_usd: z.number().describe('reported plus estimated; unpriced sessions add nothing'),
  cost_reported_usd: z.number().describe('what the agent CLIs reported'),
  cost_estimated_usd: z
    .number()
    .describe("from Jig's price table for CLIs that report no cost, or a harness's launch_usd"),
  unpriced_sessions: z.number().int().describe('agent sessions with no known cost (an unpriced model)'),
  tokens: z.object({
    input: z.number().int(),
    output: z.number().int(),
    cache_read: z.number().int(),
    cache_write: z.number().int(),
  }),
  run_time_s: z.number().describe('summed run time of the sessions that ended'),
});
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;

export const AnalyticsRow = AnalyticsFigures.extend({
  key: z
    .string()
    .describe(
      'the group: a node id, chain, repo path, harness, model, week or day; "(none)" when a session has none',
    ),
});
export type AnalyticsRow = z.infer<typeof AnalyticsRow>;

export const NodeOutcome = z.object({
  node: z.string(),
  runs: z.number().int().describe('times the node started'),
  completed: z.number().int(),
  stopped: z.number().int().describe('stops for a person at the node (gates not counted)'),
  success_rate: z.number().nullable().describe('completed / runs; null with no run'),
  stop_rate: z.number().nullable(),
});
export type NodeOutcome = z.infer<typeof NodeOutcome>;

export const AnalyticsAnswer = z.object({
  from: z.string(),
  to: z.string(),
  group_by: AnalyticsGroup,
  rows: z.array(AnalyticsRow).describe('one per group, most expensive first'),
  totals: AnalyticsFigures,
  nodes: z.array(NodeOutcome).describe('per node, by runs'),
});
export type AnalyticsAnswer = z.infer<typeof AnalyticsAnswer>;
