import { z } from 'zod';
import { ComponentRef, Duration, IconName, Identifier } from './ids.js';
import { ScopePolicy } from './scope-policy.js';

export const TASK_KINDS = ['agent', 'subprocess', 'builtin', 'forge'] as const;
export const TaskKind = z.enum(TASK_KINDS);
export type TaskKind = z.infer<typeof TaskKind>;

/** In-process actions a builtin task can run (a closed set: each is code in Jig). */
export const BUILTIN_ACTIONS = ['jig.verify_changed_test_scopes', 'jig.mr_rebase'] as const;
export const BuiltinAction = z.enum(BUILTIN_ACTIONS);

/** What a forge task does to the item's merge request. */
export const FORGE_TARGETS = [
  'mr.open_draft',
  'mr.sync',
  'mr.ci',
  'mr.automated_review',
  'mr.mark_ready',
  'mr.external_approval',
  'mr.merge',
  'mr.post_merge_ci',
] as const;
export const ForgeTarget = z.enum(FORGE_TARGETS);
export type ForgeTarget = z.infer<typeof ForgeTarget>;
/** Targets that run as external waits: the item waits, holding no run slot. */
export const WAIT_TARGETS = [
  'mr.ci',
  'mr.automated_review',
  'mr.external_approval',
  'mr.merge',
  'mr.post_merge_ci',
] as const satisfies readonly ForgeTarget[];
export const WaitTarget = z.enum(WAIT_TARGETS);
export type WaitTarget = z.infer<typeof WaitTarget>;

export const TASK_INPUTS = ['review_package', 'carried_findings', 'previous_review'] as const;
export const TaskInput = z.enum(TASK_INPUTS);

/** Document kinds an agent task can produce and a gate can review. */
export const DOCUMENT_KINDS = [
  'spec',
  'plan',
  'chain_revision',
  'work_brief',
  'review_brief',
  'mr_meta',
] as const;
export const DocumentKind = z.enum(DOCUMENT_KINDS);

/** `jig:code-review`, an add-on's `release:notes`, or a bare name. */
export const SkillRef = z.string().regex(/^([a-z][a-z0-9_-]*:)?[a-z][a-z0-9_-]*$/, {
  error: 'is not a skill name (`name` or `<namespace>:<name>`)',
});

/** One launch to try when the task's own is rate limited or unavailable. */
export const FallbackEntry = z
  .object({
    harness: Identifier.optional().describe("harness id; default: the task's"),
    profile: ComponentRef.optional().describe(
      "agent profile, or an add-on's `<namespace>:<name>`; or model/effort, never both",
    ),
    model: z.string().min(1).optional(),
    effort: z.string().min(1).optional(),
  })
  .strict();
export type FallbackEntry = z.infer<typeof FallbackEntry>;

export const WaitSpec = z
  .object({
    polling: z
      .object({
        initial_interval: Duration.optional().describe('first check after this long; default 30s'),
        max_interval: Duration.optional().describe('the interval doubles up to this; default 5m'),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Keys every task kind takes. */
export const taskCommonShape = {
  kind: TaskKind.optional().describe('agent | subprocess | builtin | forge; inherited through extends'),
  extends: ComponentRef.optional().describe('library task this one is built from'),
  description: z.string().optional(),
  scope: z
    .enum(['once', 'each_repository'])
    .optional()
    .describe('once (default) or one run per workspace repo'),
  policy: ScopePolicy.optional(),
  skippable: z.boolean().optional().describe('default true; false refuses skips'),
  icon: IconName.optional(),
};

export const agentShape = {
  harness: Identifier.optional().describe('harness id from harnesses.yaml'),
  prompt: z.string().optional().describe('what the agent must do (required for agent tasks)'),
  skill: SkillRef.optional(),
  produces: DocumentKind.optional(),
  profile: ComponentRef.optional().describe(
    "agent profile from harnesses.yaml, or an add-on's `<namespace>:<name>`; or model/effort, never both",
  ),
  model: z.string().min(1).optional(),
  effort: z.string().min(1).optional(),
  fallback: z.array(FallbackEntry).optional().describe('launches to try in order; [] = none'),
  inputs: z.array(TaskInput).optional(),
  steering: z.array(ComponentRef).optional().describe('library steering names added to the system prompt'),
};

export const subprocessShape = {
  run: z.string().min(1).optional().describe('a shell line, run with `sh -c`'),
  argv: z.array(z.string()).min(1).optional().describe('program and arguments, no shell'),
  command: z
    .string()
    .min(1)
    .optional()
    .describe('older form: split into words without a shell; prefer run or argv'),
};

export const builtinShape = {
  ref: BuiltinAction.optional(),
  execution: z
    .enum(['sequential', 'parallel'])
    .optional()
    .describe('how matching test scopes run; default parallel'),
};

export const forgeShape = {
  target: ForgeTarget.optional(),
  wait: WaitSpec.optional(),
};

/** Every task key of every kind, all optional: a file's task may inherit the rest through `extends`. */
export const taskFieldsShape = {
  ...taskCommonShape,
  ...agentShape,
  ...subprocessShape,
  ...builtinShape,
  ...forgeShape,
};
