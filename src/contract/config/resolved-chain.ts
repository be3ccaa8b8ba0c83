import { z } from 'zod';
import { ComponentRef, Duration, IconName, Identifier } from './ids.js';
import { ScopePolicy } from './scope-policy.js';
import {
  BuiltinAction,
  DocumentKind,
  ForgeTarget,
  WaitSpec,
  agentShape,
  subprocessShape,
  taskCommonShape,
} from './task.js';

/*
 * A chain after `extends` is expanded: what each component must hold, by kind. The model checks
 * the merged chain with these (kind-specific keys, required keys); chain files are read with the
 * looser schemas of components.ts first.
 */

const common = { ...taskCommonShape, id: Identifier };
const AgentTask = z
  .object({
    ...common,
    kind: z.literal('agent'),
    ...agentShape,
    prompt: z
      .string({ error: 'an agent task needs a prompt' })
      .min(1, { error: 'an agent task needs a prompt' }),
  })
  .strict();
const SubprocessTask = z.object({ ...common, kind: z.literal('subprocess'), ...subprocessShape }).strict();
const BuiltinTask = z
  .object({
    ...common,
    kind: z.literal('builtin'),
    ref: BuiltinAction,
    execution: z.enum(['sequential', 'parallel']).optional(),
  })
  .strict();
const ForgeTask = z
  .object({ ...common, kind: z.literal('forge'), target: ForgeTarget, wait: WaitSpec.optional() })
  .strict();

export const ResolvedHandlerTask = z.discriminatedUnion('kind', [
  AgentTask,
  SubprocessTask,
  BuiltinTask,
  ForgeTask,
]);
export type ResolvedHandlerTask = z.infer<typeof ResolvedHandlerTask>;

const stepCommon = {
  id: Identifier,
  extends: ComponentRef.optional(),
  description: z.string().optional(),
  policy: ScopePolicy.optional(),
  skippable: z.boolean().optional(),
  icon: IconName.optional(),
};
const HandlerStep = z
  .object({
    ...stepCommon,
    tasks: z.array(ResolvedHandlerTask).min(1, { error: 'a step needs at least one task' }),
  })
  .strict();
const planShape = { tasks: z.array(ResolvedHandlerTask).optional(), steps: z.array(HandlerStep).optional() };
export const ResolvedPlan = z.object(planShape).strict();

const withRecovery = { on_failure: ResolvedPlan.optional() };
export const ResolvedTask = z.discriminatedUnion('kind', [
  AgentTask.extend(withRecovery),
  SubprocessTask.extend(withRecovery),
  BuiltinTask.extend(withRecovery),
  ForgeTask.extend(withRecovery),
]);
export type ResolvedTask = z.infer<typeof ResolvedTask>;

export const ResolvedStep = z
  .object({
    ...stepCommon,
    tasks: z.array(ResolvedTask).min(1, { error: 'a step needs at least one task' }),
    on_failure: ResolvedPlan.optional(),
    read_only: z.boolean().optional(),
  })
  .strict();

export const ResolvedExecNode = z
  .object({
    id: Identifier,
    kind: z.literal('exec'),
    extends: ComponentRef.optional(),
    description: z.string().optional(),
    policy: ScopePolicy.optional(),
    skippable: z.boolean().optional(),
    icon: IconName.optional(),
    tasks: z.array(ResolvedTask).optional(),
    steps: z.array(ResolvedStep).optional(),
    on_failure: ResolvedPlan.optional(),
    fix_loop: z
      .object({
        ...planShape,
        judge: ResolvedHandlerTask.optional(),
        max_attempts: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    escalation: ResolvedHandlerTask.optional(),
    on_base_changed: z
      .object({ restart_from: Identifier.optional(), on_conflict: ResolvedPlan.optional() })
      .strict()
      .optional(),
    read_only: z.boolean().optional(),
  })
  .strict();

export const ResolvedGateNode = z
  .object({
    id: Identifier,
    kind: z.literal('gate'),
    extends: ComponentRef.optional(),
    description: z.string().optional(),
    policy: ScopePolicy.optional(),
    skippable: z.boolean().optional(),
    message: z.string().optional(),
    artifact: DocumentKind.optional(),
    artifact_required: z.boolean().optional(),
    reject_to: Identifier.optional(),
    timeout: Duration.optional(),
    auto_review: AgentTask.optional(),
    chain_finalized: z.boolean().optional(),
  })
  .strict();

export const ResolvedNode = z.discriminatedUnion('kind', [ResolvedExecNode, ResolvedGateNode]);
export type ResolvedNode = z.infer<typeof ResolvedNode>;

/** The merged chain as checked (tasks shorthand still as written). */
export const ResolvedChainInput = z
  .object({
    id: Identifier,
    description: z.string().optional(),
    policy: ScopePolicy.optional(),
    nodes: z.array(ResolvedNode).min(1, { error: 'a chain needs at least one node' }),
  })
  .strict();
export type ResolvedChainInput = z.infer<typeof ResolvedChainInput>;
