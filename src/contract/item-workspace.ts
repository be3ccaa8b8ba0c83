import { z } from 'zod';

/** One member of a workspace item, as frozen at filing and filled in when its worktree is cut. */
export const ItemMember = z
  .object({
    name: z.string().min(1).describe('the member name in repos.yaml workspaces'),
    repository: z.string().min(1).describe('the id of the connected repository'),
    repo_path: z.string().min(1).describe('where that repository is'),
    path: z.string().min(1).describe("where the member sits in the root's checkout"),
    base_branch: z.string().nullable().describe("the member's base branch; null until the first start"),
    base_ref: z.string().nullable().describe('the commit the member branch was cut from'),
    worktree_path: z.string().nullable().describe("the member's worktree; null until it is cut"),
  })
  .strict();
export type ItemMember = z.infer<typeof ItemMember>;

/** What a workspace item is filed on: the workspace, its root policy and the selected members. */
export const ItemWorkspace = z
  .object({
    name: z.string().min(1),
    root_pointer: z.enum(['ignore', 'bump']),
    members: z.array(ItemMember).min(1),
  })
  .strict();
export type ItemWorkspace = z.infer<typeof ItemWorkspace>;
