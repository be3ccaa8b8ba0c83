import { z } from 'zod';
import { ComponentRef } from './ids.js';

/** One `schedules:` entry. The cron text is checked by the cron dialect's own parser. */
export const ScheduleEntry = z
  .object({
    cron: z.string().min(1).describe('five fields, UTC'),
    repo: z.string().min(1).describe("path of a connected repository, or a workspace's name"),
    members: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('when repo names a workspace: the members to run on (default every member)'),
    chain: ComponentRef.describe('chain id; a schedule never takes a default chain'),
    title: z.string().describe("one line; a blank title takes the description's first line"),
    description: z.string().default(''),
  })
  .strict();
export type ScheduleEntry = z.infer<typeof ScheduleEntry>;

/** `intake.yaml`: auto-intake from Beads and cron schedules. */
export const IntakeFile = z
  .object({
    enabled: z.boolean().default(false).describe('auto-intake on or off; schedules run either way'),
    interval_s: z.number().int().min(30).default(300),
    priority_ceiling: z.number().int().min(0).max(4).default(2),
    repos: z
      .array(z.string().min(1))
      .default([])
      .describe('paths auto-intake polls; empty = every enabled repo'),
    schedules: z.array(ScheduleEntry).default([]),
    max_concurrent: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('moved to policy.yaml; still read here (with a warning) when policy.yaml has none'),
  })
  .strict();
export type IntakeFile = z.infer<typeof IntakeFile>;
