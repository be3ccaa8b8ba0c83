import { z } from 'zod';

/*
 * The tracker issues an item implements (docs/intake.md): the one auto-intake filed it for, and the
 * beads a person linked with `implements`. Stored one row each (store/item-issues.ts), so "is this
 * issue already an item?" is one indexed lookup.
 */

/** Where an issue lives: beads in the repository, the repository's forge, Linear or Jira. */
export const IssueTracker = z.enum(['beads', 'github', 'gitlab', 'gitea', 'linear', 'jira']);
export type IssueTracker = z.infer<typeof IssueTracker>;

/** The trackers that are a repository's forge: their issues are `owner/repo#N` and a merge request closes them. */
export const FORGE_TRACKERS: readonly IssueTracker[] = ['github', 'gitlab', 'gitea'];

/** What became of the issue when its item ended: closed, left open (nothing changed), or not yet. */
export const IssueClosing = z.enum(['open', 'closed', 'left_open']);
export type IssueClosing = z.infer<typeof IssueClosing>;

export const ItemIssue = z.object({
  tracker: IssueTracker,
  id: z
    .string()
    .describe(
      'the issue id in its tracker: a bead id (shop-a1b2), a forge issue (acme/app#12), a Linear or Jira key (ENG-42)',
    ),
  priority: z
    .number()
    .int()
    .nullable()
    .describe('0 highest, as the tracker had it when filed; null when linked by hand'),
  how: z.enum(['auto_intake', 'implements']).describe('filed by auto-intake, or linked when filed'),
  closing: IssueClosing,
  url: z.string().nullable().describe("the issue's web page; null for a bead"),
});
export type ItemIssue = z.infer<typeof ItemIssue>;

/**
 * An issue as the checks log and the logs name it: a bead by its id (as the spec's `bead` field has
 * it), any other tracker's issue with the tracker in front (`github:acme/app#12`, `linear:ENG-42`).
 */
export const issueName = (i: { tracker: IssueTracker; id: string }): string =>
  i.tracker === 'beads' ? i.id : `${i.tracker}:${i.id}`;

/** A bead id as `implements` takes it: what `bd` prints, no spaces or shell characters. */
export const BeadId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a bead id: letters, digits, ".", "_" and "-"');
