import { z } from 'zod';

const Proposal = z.object({ value: z.string(), reason: z.string() }).nullable();

export const ProbeAnswer = z.object({
  path: z.string().describe("the repository's top folder"),
  is_git: z.boolean(),
  has_commit: z.boolean(),
  connected: z.boolean(),
  name: z.string(),
  default_branch: z.string().nullable(),
  forge: Proposal,
  project: Proposal,
  test_command: Proposal.describe('null when nothing was detected: decide one, or "" for no tests'),
  setup_command: Proposal,
  workspace: z
    .object({
      name: z.string(),
      reason: z.string(),
      members: z.array(
        z.object({
          name: z.string().describe('a member name (an identifier) made from the submodule name'),
          submodule: z.string(),
          path: z.string().describe("the submodule's path in this repository"),
          repo_path: z.string(),
          checked_out: z.boolean().describe('the submodule is initialized (it has a checkout)'),
          connected: z.boolean(),
        }),
      ),
    })
    .nullable()
    .describe('a workspace Jig proposes when .gitmodules declares submodules; null otherwise'),
  default_chain: z
    .object({ value: z.string(), reason: z.string() })
    .describe(
      'the chain a newly connected repo gets: `default`, or `manual` (no agent) when no agent CLI is installed here',
    ),
});
export type ProbeAnswer = z.infer<typeof ProbeAnswer>;

export const RepoView = z.object({
  path: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  managed: z.boolean(),
  default_chain: z.string(),
  test_command: z.string().nullable().describe('null = undecided; "" = the repo has no tests'),
  setup_command: z.string().nullable().describe('null = undecided; "" = nothing to set up'),
  forge: z.string().nullable(),
  project: z.string().nullable(),
  exists: z.boolean().describe('whether the path is still a folder on disk'),
  open_items: z.number().int().describe('items not completed, cancelled or abandoned'),
  needs: z.array(z.string()).describe('keys still to decide before the repo can be enabled'),
  entry: z.record(z.string(), z.unknown()).describe('the entry as written in repos.yaml'),
});
export type RepoView = z.infer<typeof RepoView>;

export const WorkspaceMemberView = z.object({
  name: z.string(),
  repository: z.string().describe('the id of the connected repository (repos.yaml `id`)'),
  path: z.string().describe("where the member sits inside the root's checkout (a submodule path)"),
  repo_path: z.string().nullable().describe('the connected repository it names; null when none has that id'),
  enabled: z.boolean(),
  problem: z.string().nullable(),
});

export const WorkspaceView = z.object({
  name: z.string(),
  root: z.string().describe('the id of the root repository'),
  root_path: z.string().nullable().describe('the connected root repository; null when none has that id'),
  root_pointer_default: z.enum(['ignore', 'bump']).describe('default ignore'),
  members: z.array(WorkspaceMemberView),
  /** Every repository it names is connected and enabled, and no member path leaves the root. */
  ready: z.boolean(),
  problems: z.array(z.string()),
});
export type WorkspaceView = z.infer<typeof WorkspaceView>;

export const ReposAnswer = z.object({
  repos: z.array(RepoView),
  workspaces: z.array(WorkspaceView).describe("repos.yaml `workspaces`, with their members' state"),
  suggested: z
    .object({ path: z.string(), name: z.string() })
    .nullable()
    .describe(
      "the git checkout the server was started in, when it is not connected and is not Jig's own clone",
    ),
  warnings: z.array(z.string()),
});

export const ProbeBody = z.object({ path: z.string().min(1) }).strict();

export const ConnectBody = z
  .object({
    path: z.string().min(1),
    name: z.string().min(1).optional(),
    default_chain: z.string().min(1).optional(),
    default_chain_template: z.string().min(1).optional().describe('older name of default_chain'),
    test_command: z.string().optional().describe('"" = the repo has no tests'),
    setup_command: z.string().optional().describe('"" = nothing to set up'),
    enabled: z.boolean().optional(),
  })
  .strict();
export type ConnectBody = z.infer<typeof ConnectBody>;

export const RepoPathQuery = z.object({ path: z.string().min(1) });

/** Whether merge requests can work from a repository: its forge, and where the token comes from. */
export const ForgeCheck = z.object({
  path: z.string(),
  forge: z.enum(['github', 'gitlab', 'gitea']).nullable(),
  project: z.string().nullable(),
  api_url: z.string().nullable(),
  token_source: z.string().nullable().describe('the variable or CLI the token comes from (never the token)'),
  ready: z.boolean(),
  problem: z.string().nullable().describe('what to set when not ready'),
});
export type ForgeCheck = z.infer<typeof ForgeCheck>;

/** PATCH body: keys of the repos.yaml entry; null clears one. */
export const RepoPatchBody = z.record(z.string(), z.unknown());
