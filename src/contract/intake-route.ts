import { z } from 'zod';

/** Where a schedule is written: `intake.yaml` `schedules:`, or a 1.x `triggers:` left in `policy.yaml`. */
export const ScheduleSource = z.enum(['intake', 'policy.triggers']);
export type ScheduleSource = z.infer<typeof ScheduleSource>;

export const ScheduleProblem = z.object({
  field: z.enum(['cron', 'repo', 'chain', 'title']).describe('the entry field at fault'),
  message: z.string(),
});
export type ScheduleProblem = z.infer<typeof ScheduleProblem>;

export const ScheduleView = z.object({
  index: z.number().int().describe('position in its list (`schedules.N` or `triggers.N`)'),
  source: ScheduleSource,
  cron: z.string(),
  repo: z.string(),
  chain: z
    .string()
    .nullable()
    .describe('null only for a legacy trigger that names none (it files with the repo default chain)'),
  title: z.string().describe('as written; the item is filed with the cleaned title'),
  description: z.string(),
  next_fire_at: z
    .string()
    .nullable()
    .describe('next minute it fires (ISO 8601 UTC); null when it never fires or would be skipped'),
  problems: z
    .array(ScheduleProblem)
    .describe('why the entry would be skipped now: cron, repo not connected, chain unknown, blank title'),
});
export type ScheduleView = z.infer<typeof ScheduleView>;

/** Answer of `GET /api/intake`: the running intake settings and every schedule that runs. */
export const IntakeAnswer = z.object({
  enabled: z.boolean().describe('auto-intake on or off; schedules fire either way'),
  interval_s: z.number().int(),
  priority_ceiling: z.number().int(),
  repos: z.array(z.string()),
  intake_off: z
    .boolean()
    .describe('true when the server started on an intake.yaml that does not load: its schedules are off'),
  invalid_intake: z.string().nullable().describe('why intake.yaml does not load, else null'),
  schedules: z.array(ScheduleView).describe('intake.yaml schedules first, then policy.yaml triggers'),
});
export type IntakeAnswer = z.infer<typeof IntakeAnswer>;
