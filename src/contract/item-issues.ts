import { z } from 'zod';

/*
 * The tracker issues an item implements (docs/intake.md): the one auto-intake filed it for, and the
 * beads a person linked with `implements`. Stored one row each (store/item-issues.ts), so "is this
 * issue already an item?" is one indexed lookup.
 */

/** Where an issue lives. Only beads is read in this build; the rest name the forge and trackers to come. */
export const IssueTracker = z.enum(['beads']);
export type IssueTracker = z.infer<typeof IssueTracker>;

/** What became of the issue when its item ended: closed, left open (nothing changed), or not yet. */
export const IssueClosing = z.enum(['open', 'closed', 'left_open']);
export type IssueClosing = z.infer<typeof IssueClosing>;

export const ItemIssue = z.object({
  tracker: IssueTracker,
  id: z.string().describe('the issue id in its tracker (a bead id such as shop-a1b2)'),
  priority: z
    .number()
    .int()
    .nullable()
    .describe('0 highest, as the tracker had it when filed; null when linked by hand'),
  how: z.enum(['auto_intake', 'implements']).describe('filed by auto-intake, or linked when filed'),
  closing: IssueClosing,
});
export type ItemIssue = z.infer<typeof ItemIssue>;

/** A bead id as `implements` takes it: what `bd` prints, no spaces or shell characters. */
export const BeadId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a bead id: letters, digits, ".", "_" and "-"');
