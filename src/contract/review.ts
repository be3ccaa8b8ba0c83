import { z } from 'zod';

/** What a review compares: the base, the end of an attempt, the person's last review, or now. */
export const REVIEW_TARGET_HINT = 'base, latest, last_review or attempt:N';

export const DiffFormat = z.enum(['patch', 'stat', 'name_only']);
export type DiffFormat = z.infer<typeof DiffFormat>;

const flag = z.enum(['1', '0', 'true', 'false']).optional();

/** A query flag's value: `1` and `true` are on. */
export const flagOn = (v: string | undefined): boolean => v === '1' || v === 'true';

/** The query flags every diff of an item takes. */
export const DiffQueryShape = {
  format: DiffFormat.optional().describe('patch (default), stat (counts, no patch), name_only (paths only)'),
  ignore_whitespace: flag.describe('ignore changes in whitespace (git diff -w)'),
  offset: z.coerce.number().int().min(0).optional().describe('index of the first file of the page'),
  limit: z.coerce.number().int().min(1).max(500).optional().describe('files per page (default 100)'),
};
export const DiffQuery = z.object(DiffQueryShape).strict();

export const CompareQuery = z
  .object({
    ...DiffQueryShape,
    from: z.string().min(1).max(80).optional().describe(`${REVIEW_TARGET_HINT} (default base)`),
    to: z.string().min(1).max(80).optional().describe(`${REVIEW_TARGET_HINT} (default latest)`),
    nodes: z
      .string()
      .max(2000)
      .optional()
      .describe('comma-separated node ids: only files those nodes changed'),
  })
  .strict();

export const DiffFile = z.object({
  path: z.string().describe("relative to the worktree; a workspace member's file is prefixed `<member>/`"),
  /** A workspace item's member whose repository the file is in; absent for the root's (or one repo's). */
  member: z.string().optional(),
  old_path: z.string().nullable(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'type_changed']),
  /** Null when not counted: a binary file, or the name_only format. */
  additions: z.number().int().nullable(),
  deletions: z.number().int().nullable(),
  /** Null with the name_only format (nothing was read to tell). */
  binary: z.boolean().nullable(),
  /** Marked viewed by this person, and unchanged since. */
  viewed: z.boolean(),
  /** The file's unified diff; null in the stat and name_only formats, for a binary file, or past the size cap. */
  patch: z.string().nullable(),
  /** The patch was left out because it is larger than the cap for one file. */
  truncated: z.boolean(),
});
export type DiffFile = z.infer<typeof DiffFile>;

export const DiffEnd = z.object({
  target: z.string(),
  sha: z.string(),
});

export const ReviewAttempt = z.object({
  /** `attempt:N` names this attempt. */
  n: z.number().int(),
  node: z.string(),
  /** Which run of that node it was (1 for the first). */
  run: z.number().int(),
  sha: z.string(),
  at: z.string(),
});
export type ReviewAttempt = z.infer<typeof ReviewAttempt>;

export const ItemDiff = z.object({
  from: DiffEnd,
  to: DiffEnd,
  format: DiffFormat,
  ignore_whitespace: z.boolean(),
  /** Node ids the files were limited to; null for every change. */
  nodes: z.array(z.string()).nullable(),
  totals: z.object({
    files: z.number().int(),
    additions: z.number().int(),
    deletions: z.number().int(),
  }),
  files: z.array(DiffFile),
  offset: z.number().int(),
  /** Where the next page starts; null on the last page. */
  next_offset: z.number().int().nullable(),
  /** The attempts recorded for this item, oldest first: what `attempt:N` may name. */
  attempts: z.array(ReviewAttempt),
});
export type ItemDiff = z.infer<typeof ItemDiff>;

export const ViewedBody = z
  .object({
    path: z.string().min(1).max(4096).describe("a file of the item's changes, relative to the worktree"),
  })
  .strict();

export const ViewedAnswer = z.object({ path: z.string(), viewed: z.boolean() });

/** One commit on an item's branch past its base. */
export const BranchCommit = z.object({
  sha: z.string(),
  short: z.string().describe('the sha abbreviated as git abbreviates it in this repository'),
  subject: z.string().describe("the commit message's first line"),
  author: z.string(),
  at: z.string().describe('when it was committed (ISO 8601)'),
});
export type BranchCommit = z.infer<typeof BranchCommit>;

/** Where an item's change is: its branch in one repository (a workspace item: the root's and each member's). */
export const ItemBranch = z.object({
  member: z
    .string()
    .optional()
    .describe("a workspace item's member; absent for the root's (or one repo's) branch"),
  repo: z.string().describe("the repository's path: `git -C <repo> log <branch>` shows the same commits"),
  branch: z.string(),
  base_branch: z.string().nullable(),
  exists: z.boolean().describe('whether the branch is in the repository (abandon deletes it)'),
  commits: z
    .array(BranchCommit)
    .describe('the commits on the branch past the commit it was cut from, newest first, at most 100'),
  more: z.boolean().describe('more than the commits listed are on the branch'),
  merged: z
    .boolean()
    .describe(
      'the base branch contains the branch (its commits reached the base); false while nothing is committed',
    ),
});
export type ItemBranch = z.infer<typeof ItemBranch>;

export const ItemCommits = z.object({
  branches: z
    .array(ItemBranch)
    .describe(
      "the item's branches, the root's first; empty before the item's first start (no worktree cut yet)",
    ),
});
export type ItemCommits = z.infer<typeof ItemCommits>;
