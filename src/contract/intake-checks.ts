import { z } from 'zod';

/*
 * Auto-intake polls as `GET /api/intake/checks` answers them (spec drafts.md, "Settings routes").
 * The polls that record them come with auto-intake; the store keeps the newest 500.
 */

/** Why a poll left a ready issue alone (or could not run: `invalid_config` with no bead). */
export const IntakeSkipReason = z.enum([
  'above_priority_ceiling',
  'already_item',
  'epic',
  'max_concurrent',
  'daily_budget',
  'invalid_config',
  /** An issue its tracker says is blocked by one no item implements yet: filed once that one is. */
  'blocked_by_unfiled',
]);
export type IntakeSkipReason = z.infer<typeof IntakeSkipReason>;

export const IntakeSkip = z.object({
  bead: z
    .string()
    .nullable()
    .describe('the issue id; null with invalid_config when policy.yaml or repos.yaml did not load'),
  reason: IntakeSkipReason,
});
export type IntakeSkip = z.infer<typeof IntakeSkip>;

export const IntakeCheck = z.object({
  id: z.number().int(),
  at: z.string().describe('when the poll ran, ISO 8601 with offset'),
  ready: z
    .number()
    .int()
    .min(0)
    .describe('issues the tracker reported ready (nothing blocks them); blocked ones are read beside them'),
  started: z.array(z.string()).describe('work item ids the poll filed and started'),
  skipped: z.array(IntakeSkip).describe('issues left alone, with why'),
});
export type IntakeCheck = z.infer<typeof IntakeCheck>;

export const IntakeChecksAnswer = z.array(IntakeCheck).describe('newest first');

/** How many checks a page holds at most, and how many the store keeps. */
export const INTAKE_CHECKS_MAX_LIMIT = 100;
export const INTAKE_CHECKS_KEPT = 500;

export const IntakeChecksQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(INTAKE_CHECKS_MAX_LIMIT)
    .default(20)
    .describe('how many, newest first: 1 to 100'),
});
