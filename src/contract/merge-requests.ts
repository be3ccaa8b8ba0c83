import { z } from 'zod';

/** An item's merge request as Jig records it (GitHub's pull request, GitLab's merge request). */
export const MergeRequestState = z.enum(['open', 'closed', 'merged']);

export const ForgeMergeRequest = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  state: MergeRequestState,
  draft: z.boolean(),
  /** The source branch and the target branch. */
  head: z.string(),
  base: z.string(),
  sha: z.string().nullable(),
  /** The commit the merge made on the base branch, once merged (what post-merge CI runs on). */
  merge_sha: z.string().nullable(),
  title: z.string(),
  labels: z.array(z.string()),
});
export type ForgeMergeRequest = z.infer<typeof ForgeMergeRequest>;

export const ItemMergeRequest = ForgeMergeRequest.extend({
  /** The repository it is for (a workspace item has one per repository). */
  repo: z.string(),
  updated_at: z.string(),
});
export type ItemMergeRequest = z.infer<typeof ItemMergeRequest>;

export const MergeRequestsAnswer = z.object({ merge_requests: z.array(ItemMergeRequest) });

export const LabelsBody = z
  .object({
    labels: z
      .array(z.string().trim().min(1).max(100))
      .max(50)
      .describe('the whole set: labels left out are removed'),
  })
  .strict();
export const LabelsAnswer = z.object({ merge_request: ItemMergeRequest });
