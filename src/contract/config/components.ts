import { z } from 'zod';
import { ComponentRef, Duration, IconName, Identifier } from './ids.js';
import { ScopePolicy } from './scope-policy.js';
import { DocumentKind, taskFieldsShape } from './task.js';

/*
 * Component schemas of chain files and library.yaml, as written: every key optional that a
 * component can inherit through `extends`. What a resolved component must hold is in
 * resolved-chain.ts. Handlers (on_failure, fix_loop, on_conflict) cannot nest, so their steps and
 * tasks have no `on_failure`; this keeps the schemas non-recursive.
 */

/** A task inside a handler, or a slot task (judge, escalation, auto_review). */
export const HandlerTask = z.object({ id: Identifier.optional(), ...taskFieldsShape }).strict();
export type HandlerTask = z.infer<typeof HandlerTask>;

const stepCommonShape = {
  extends: ComponentRef.optional().describe('library step this one is built from'),
  description: z.string().optional(),
  policy: ScopePolicy.optional(),
  skippable: z.boolean().optional(),
  icon: IconName.optional(),
};

export const HandlerStep = z
  .object({
    id: Identifier,
    ...stepCommonShape,
    tasks: z.array(HandlerTask.extend({ id: Identifier })).optional(),
  })
  .strict();

/** A recovery plan: `tasks` (one step `main`) or `steps`. */
export const planShape = {
  tasks: z
    .array(HandlerTask.extend({ id: Identifier }))
    .optional()
    .describe('shorthand for one step `main`'),
  steps: z.array(HandlerStep).optional(),
};
export const Plan = z.object(planShape).strict();
export type Plan = z.infer<typeof Plan>;

export const FixLoop = z
  .object({
    ...planShape,
    judge: HandlerTask.optional().describe('decides before each cycle after the first whether to go on'),
    max_attempts: z.number().int().positive().optional().describe('repair cycles per entry into the node'),
  })
  .strict();

export const OnBaseChanged = z
  .object({
    restart_from: Identifier.optional().describe('this or an earlier exec node'),
    on_conflict: Plan.nullable().optional().describe('recovery plan run on a rebase conflict'),
  })
  .strict();

const taskInStepShape = { ...taskFieldsShape, on_failure: Plan.nullable().optional() };
export const LibraryTask = z.object(taskInStepShape).strict();
export const ChainTask = z.object({ id: Identifier, ...taskInStepShape }).strict();
export type ChainTask = z.infer<typeof ChainTask>;

const stepShape = {
  ...stepCommonShape,
  tasks: z.array(ChainTask).optional().describe('run together; at least one'),
  on_failure: Plan.nullable().optional(),
  read_only: z.boolean().optional().describe('stop the item if the step changes the worktree'),
};
export const LibraryStep = z.object(stepShape).strict();
export const ChainStep = z.object({ id: Identifier, ...stepShape }).strict();

const nodeShape = {
  kind: z.enum(['exec', 'gate']).optional().describe('exec (default) runs tasks; gate waits for a person'),
  extends: ComponentRef.optional().describe('library node this one is built from'),
  description: z.string().optional(),
  policy: ScopePolicy.optional(),
  skippable: z.boolean().optional().describe('default true; false refuses skips'),
  icon: IconName.optional(),
  // exec
  tasks: z.array(ChainTask).optional().describe('shorthand for one step `main`'),
  steps: z.array(ChainStep).optional(),
  on_failure: Plan.nullable().optional(),
  fix_loop: FixLoop.nullable().optional(),
  escalation: HandlerTask.nullable().optional().describe('one task run when the node is stuck'),
  on_base_changed: OnBaseChanged.nullable().optional(),
  read_only: z.boolean().optional().describe('stop the item if the node changes the worktree'),
  // gate
  message: z.string().optional().describe('shown to the person deciding'),
  artifact: DocumentKind.optional().describe('document kind the gate reviews'),
  artifact_required: z.boolean().optional().describe('approving refuses while the document is missing'),
  reject_to: Identifier.optional().describe('earlier exec node a rejection re-enters'),
  timeout: Duration.optional().describe(
    'how long the gate waits before the item stops (the gate stays open)',
  ),
  auto_review: HandlerTask.nullable().optional().describe('agent task that reviews before a person'),
  chain_finalized: z.boolean().optional().describe('marks the final review gate'),
};
export const LibraryNode = z.object(nodeShape).strict();
export const ChainNode = z.object({ id: Identifier, ...nodeShape }).strict();
export type ChainNode = z.infer<typeof ChainNode>;
