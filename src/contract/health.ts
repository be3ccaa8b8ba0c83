import { z } from 'zod';

/** `GET /api/health`: a stable route (spec "Health answer"); fields only ever get added. */
export const ReattachSummary = z.object({
  scanned: z.number().int().nonnegative(),
  adopted: z.number().int().nonnegative(),
  resolved_from_file: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
  resumed_work_items: z.number().int().nonnegative(),
});
export type ReattachSummary = z.infer<typeof ReattachSummary>;

export const IndexState = z.object({
  last_scan_at: z.string().nullable().describe('ISO 8601 time of the last scan, null before the first'),
  repos_scanned: z.number().int().nonnegative(),
  documents: z.number().int().nonnegative(),
  embeddings: z
    .enum(['off', 'building', 'ready', 'failed'])
    .describe('state of vector embeddings; `off` while search runs on full text only'),
});
export type IndexState = z.infer<typeof IndexState>;

/** One process sharing the store: a `jig serve` or a worker (docs/scale-out.md). */
export const WorkerInfo = z.object({
  name: z.string().describe('`--name`, `JIG_WORKER_NAME`, or host:pid'),
  role: z.enum(['serve', 'worker']),
  host: z.string(),
  pid: z.number().int(),
  takes_work: z.boolean().describe('whether it claims and walks items'),
  started_at: z.string(),
  heartbeat_at: z.string().describe('when it last said it was alive'),
  alive: z.boolean().describe('heard from within the silence (60 s unless --silence) and not stopped'),
  self: z.boolean().describe('the process answering'),
  leads: z
    .boolean()
    .describe(
      'the serve running schedules, auto-intake, notifications, tracker updates, forge polls and wall clocks (one at a time)',
    ),
});
export type WorkerInfo = z.infer<typeof WorkerInfo>;

export const HealthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  invalid_templates: z
    .string()
    .nullable()
    .describe('why the library or a chain does not load (file:line:col: message)'),
  invalid_policy: z.string().nullable().describe('why policy.yaml does not load'),
  invalid_intake: z.string().nullable().describe('why intake.yaml does not load'),
  intake_off: z.boolean().describe('true when the server started on an intake.yaml that does not load'),
  run_dir: z.string(),
  pid: z.number().int(),
  uptime_s: z.number().nonnegative(),
  bind: z.string(),
  port: z.number().int(),
  version: z.string().describe('version running'),
  installed: z.string().describe('version installed on disk; differs until a restart completes an update'),
  reattach_summary: ReattachSummary,
  config_rolled_back: z
    .array(z.string())
    .describe(
      'config files a change cut short by a crash had written, put back as they were at this start (docs/drafts.md); empty when none',
    ),
  index: IndexState,
  connections: z
    .strictObject({
      sockets: z.number().int().nonnegative().describe('sockets held now, WebSockets included'),
      websockets: z.number().int().nonnegative().describe('live event streams among them'),
    })
    .describe('what this process holds against its connection caps (docs/security.md)'),
  session_expiry_days: z.number().positive(),
  store: z
    .enum(['sqlite', 'postgres'])
    .describe('where the state is kept: the SQLite file in run/, or PostgreSQL (docs/scale-out.md)'),
  worker: z.string().describe("this process's name among the ones sharing the store"),
  workers: z.array(WorkerInfo).describe('every process sharing the store, this one included'),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;
