import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, SessionParams } from './params.js';

/** One task session of an item: a command or agent run, with its process, spend and result. */
export const Session = z.object({
  id: z.string(),
  node: z.string(),
  task_path: z.string(),
  kind: z.string(),
  status: z.string(),
  argv: z.array(z.string()),
  pid: z.number().int().nullable(),
  exit_code: z.number().int().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  time_cap_s: z.number().int().nullable(),
  started_at: z.string(),
  exited_at: z.string().nullable(),
  log_bytes: z.number().int(),
  harness: z.string().nullable().describe('agent sessions: the harness id'),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  cli_session_id: z.string().nullable().describe("the CLI's own session id (its resume key)"),
  tokens: z.object({
    input: z.number().int(),
    output: z.number().int(),
    cache_read: z.number().int(),
    cache_write: z.number().int(),
  }),
  cost_usd: z.number().nullable(),
  cost_source: z
    .enum(['reported', 'estimated', 'per_launch'])
    .nullable()
    .describe(
      "reported by the CLI, estimated from its tokens by the price table, or the harness's launch_usd; null: unpriced (never free)",
    ),
  readout: z.record(z.string(), z.unknown()).nullable(),
  note: z.string().nullable().describe('why the session ended as it did, when Jig knows'),
  worker: z
    .string()
    .nullable()
    .describe('the process that ran it (`jig serve` or a worker, docs/scale-out.md); null on older rows'),
});
export type Session = z.infer<typeof Session>;

export const SessionsAnswer = z.object({ sessions: z.array(Session) });

/** The most of a log one answer carries. */
export const MAX_LOG_READ = 1024 * 1024;

export const LogQuery = z.object({
  offset: z.coerce.number().int().min(0).optional(),
  tail: z.coerce.number().int().min(1).max(MAX_LOG_READ).optional(),
});

export const listSessions = defineRoute({
  operationId: 'listSessions',
  method: 'GET',
  path: '/api/work-items/:id/sessions',
  summary: "An item's task sessions, oldest first",
  tags: ['sessions'],
  params: ItemIdParams,
  responses: { 200: SessionsAnswer, 404: ErrorBodySchema },
});

export const readSessionLog = defineRoute({
  operationId: 'readSessionLog',
  method: 'GET',
  path: '/api/work-items/:id/sessions/:session/log',
  summary: "A session's output (text); `offset` reads on from a byte position, `tail` the last bytes",
  tags: ['sessions'],
  params: SessionParams,
  query: LogQuery,
  responses: { 200: z.string(), 404: ErrorBodySchema, 422: ErrorBodySchema },
});
