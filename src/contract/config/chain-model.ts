import { z } from 'zod';
import { AddonDigest } from '../addon-digest.js';
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
 * The chain as the engine runs it (core/chain/model.ts `toModel`): `extends` expanded, the `tasks`
 * shorthand turned into a step `main`, every node, step and task carrying its canonical `path`.
 * This is what an item freezes at its first start, stored as JSON in `chain_definition` and parsed
 * with these schemas when read back, so the engine works on checked types and never on a cast.
 * Kept in step with resolved-chain.ts (the merged chain before `toModel`); a test parses every
 * seeded chain's model with them.
 */

const common = { ...taskCommonShape, id: Identifier, path: z.string() };

/** The plan a task, a step or a node falls back on when it fails (`on_failure`). */
export interface ModelPlan {
  path: string;
  steps: ModelStep[];
}

const plan = (): z.ZodType<ModelPlan> => ModelPlan;
const recovery = { on_failure: z.lazy(plan).optional() };

export const ModelAgentTask = z
  .object({ ...common, kind: z.literal('agent'), ...agentShape, prompt: z.string().min(1), ...recovery })
  .strict();
export const ModelSubprocessTask = z
  .object({ ...common, kind: z.literal('subprocess'), ...subprocessShape, ...recovery })
  .strict();
export const ModelBuiltinTask = z
  .object({
    ...common,
    kind: z.literal('builtin'),
    ref: BuiltinAction,
    execution: z.enum(['sequential', 'parallel']).optional(),
    ...recovery,
  })
  .strict();
export const ModelForgeTask = z
  .object({
    ...common,
    kind: z.literal('forge'),
    target: ForgeTarget,
    wait: WaitSpec.optional(),
    ...recovery,
  })
  .strict();

export const ModelTask = z.discriminatedUnion('kind', [
  ModelAgentTask,
  ModelSubprocessTask,
  ModelBuiltinTask,
  ModelForgeTask,
]);
export type ModelTask = z.infer<typeof ModelTask>;
export type ModelAgentTask = z.infer<typeof ModelAgentTask>;

export const ModelStep = z
  .object({
    id: Identifier,
    path: z.string(),
    extends: ComponentRef.optional(),
    description: z.string().optional(),
    policy: ScopePolicy.optional(),
    skippable: z.boolean().optional(),
    icon: IconName.optional(),
    tasks: z.array(ModelTask),
    read_only: z.boolean().optional(),
    ...recovery,
  })
  .strict()
  .meta({ id: 'ChainStep' });
export type ModelStep = z.infer<typeof ModelStep>;

// Named, as ChainStep is, because a plan holds steps whose tasks hold plans: the OpenAPI document
// can only draw the cycle as references to components (server/app.ts lists the named schemas).
export const ModelPlan: z.ZodType<ModelPlan> = z
  .object({ path: z.string(), steps: z.array(ModelStep) })
  .strict()
  .meta({ id: 'ChainPlan' });

export const ModelFixLoop = z
  .object({
    path: z.string(),
    steps: z.array(ModelStep),
    judge: ModelTask.optional(),
    max_attempts: z.number().int().positive().optional(),
  })
  .strict();
export type ModelFixLoop = z.infer<typeof ModelFixLoop>;

const nodeCommon = {
  id: Identifier,
  path: z.string(),
  extends: ComponentRef.optional(),
  description: z.string().optional(),
  policy: ScopePolicy.optional(),
  skippable: z.boolean().optional(),
  icon: IconName.optional(),
};

export const ModelExecNode = z
  .object({
    ...nodeCommon,
    kind: z.literal('exec'),
    steps: z.array(ModelStep),
    on_failure: ModelPlan.optional(),
    fix_loop: ModelFixLoop.optional(),
    escalation: ModelTask.optional(),
    on_base_changed: z
      .object({ restart_from: Identifier.optional(), on_conflict: ModelPlan.optional() })
      .strict()
      .optional(),
    read_only: z.boolean().optional(),
  })
  .strict();
export type ModelExecNode = z.infer<typeof ModelExecNode>;

export const ModelGateNode = z
  .object({
    ...nodeCommon,
    kind: z.literal('gate'),
    message: z.string().optional(),
    artifact: DocumentKind.optional(),
    artifact_required: z.boolean().optional(),
    reject_to: Identifier.optional(),
    timeout: Duration.optional(),
    auto_review: ModelAgentTask.optional(),
    chain_finalized: z.boolean().optional(),
  })
  .strict();
export type ModelGateNode = z.infer<typeof ModelGateNode>;

export const ModelNode = z.discriminatedUnion('kind', [ModelExecNode, ModelGateNode]);
export type ModelNode = z.infer<typeof ModelNode>;

export const ResolvedChain = z
  .object({
    id: Identifier,
    description: z.string().optional(),
    policy: ScopePolicy.optional(),
    nodes: z.array(ModelNode),
    addons: z
      .record(Identifier, AddonDigest)
      .optional()
      .describe(
        "the add-ons whose content the chain uses, each pinned to the installed version's digest: an item keeps these versions (docs/addons.md)",
      ),
  })
  .strict();
export type ResolvedChain = z.infer<typeof ResolvedChain>;
