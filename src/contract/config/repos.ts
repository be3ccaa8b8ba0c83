import { z } from 'zod';
import { ComponentRef, Identifier } from './ids.js';
import { Sandbox } from './sandbox.js';
import { ScopePolicy } from './scope-policy.js';

/** Keys older releases wrote; they load with a warning and nothing reads them. */
export const RETIRED_REPO_KEYS = [
  'default_model',
  'submodules',
  'default_root_merge_policy',
  'allow_cross_repo',
] as const;

const TestScope = z
  .object({
    paths: z.array(z.string().min(1)).min(1).describe('globs of changed files that select this scope'),
    command: z.string().describe('test command for those paths'),
  })
  .strict();

export const RootPointerDefault = z.enum(['ignore', 'bump']);

/** The forges Jig opens merge requests on (Gitea covers Forgejo and Codeberg). */
export const FORGES = ['github', 'gitlab', 'gitea'] as const;
export const ForgeKind = z.enum(FORGES);
export type ForgeKind = z.infer<typeof ForgeKind>;

export const RepoEntry = z
  .object({
    path: z.string().min(1).describe('absolute path of the git repository'),
    id: Identifier.optional().describe('id workspaces use to name this repository'),
    name: z.string().min(1).optional().describe('display name; default: the folder name'),
    default_chain: ComponentRef.optional().describe('chain for new items; default: default'),
    default_chain_template: ComponentRef.optional().describe('older name of default_chain; still read'),
    enabled: z.boolean().optional().describe('false: no new items; default true'),
    managed: z.boolean().optional().describe('false: found by Jig (a submodule), not connected by a person'),
    test_command: z.string().optional().describe('what verification runs; "" = no tests'),
    test_scopes: z.array(TestScope).optional().describe('path-scoped test commands, for monorepos'),
    setup_command: z.string().optional().describe('runs in each new worktree; "" = deliberately nothing'),
    sandbox: Sandbox.optional(),
    policy: ScopePolicy.optional().describe('repository policy layer; may only tighten policy.yaml'),
    steering: z.array(ComponentRef).optional().describe('library steering added to every agent launch here'),
    deny_tools: z.array(z.string().min(1)).optional(),
    models: z.record(Identifier, z.string().min(1)).optional().describe('model per harness id'),
    forge: ForgeKind.optional().describe('where merge requests go; set from origin when Jig can tell'),
    project: z
      .string()
      .min(1)
      .optional()
      .describe('owner/name, or the GitLab project path; default: the path of origin'),
    forge_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        'the forge API base (GitHub Enterprise, self-hosted GitLab, Gitea/Forgejo); default: from origin',
      ),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).optional(),
    env_passthrough: z
      .array(z.string().min(1))
      .optional()
      .describe("variable names copied from the server's env"),
    local_files: z.array(z.string().min(1)).optional().describe('gitignored files copied into each worktree'),
    root_pointer_default: RootPointerDefault.optional().describe(
      'workspace root: ignore or bump member pointers',
    ),
    automated_review: z
      .object({ bot: z.string().min(1).optional(), check: z.string().min(1).optional() })
      .strict()
      .optional(),
    ci_checks: z
      .boolean()
      .optional()
      .describe('false: the repository has no CI, so CI waits pass at once (ci_not_configured)'),
    merge_method: z
      .enum(['merge', 'squash', 'rebase'])
      .optional()
      .describe('how mr.merge merges on the forge; default merge'),
    intent_dir: z.string().min(1).optional(),
  })
  .strict();
export type RepoEntry = z.infer<typeof RepoEntry>;

export const Workspace = z
  .object({
    root: z.string().min(1).describe('repo id of the root repository'),
    root_pointer_default: RootPointerDefault.optional(),
    members: z
      .record(Identifier, z.object({ repository: z.string().min(1), path: z.string().min(1) }).strict())
      .optional(),
  })
  .strict();

/** `repos.yaml`: connected repositories and workspaces. */
export const ReposFile = z
  .object({
    repos: z.array(RepoEntry).default([]),
    workspaces: z.record(Identifier, Workspace).optional(),
  })
  .strict();
export type ReposFile = z.infer<typeof ReposFile>;
