import { z } from 'zod';
import { ModelNode } from '../config/chain-model.js';
import { ComponentRef, Identifier } from '../config/ids.js';

/*
 * A work item's own chain draft (spec drafts.md "Item drafts"): a stored list of ops on the item's
 * frozen chain, applied at once. The op schemas are strict so a PUT refuses an unknown op or field
 * with 422; what an op asks for that the chain or policy cannot take is a problem on the answer.
 */

/** A canonical scope path: `verification`, `verification.main.tests`. */
export const ScopePath = z
  .string()
  .max(400)
  .regex(/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/, {
    error: 'is not a component path like node, node.step or node.step.task',
  });

/** A mapping whose keys are checked against the chain (a problem, not a malformed op). */
const Mapping = z.record(z.string(), z.unknown());

export const OverrideOp = z.strictObject({
  op: z.literal('override'),
  path: ScopePath,
  task_config: Mapping.optional().describe('model, effort or harness for the agent tasks at and under path'),
  policy: Mapping.optional().describe('caps for the scope at path: only tightened, or kept under the maxima'),
});

/** One library component placed under an id, as a chain file writes it. */
export const ComponentUse = z.strictObject({ id: Identifier, extends: ComponentRef });

/** The node an `add_node` inserts: a library node, or an exec node of library tasks or steps. */
export const AddedNode = z.union([
  z.strictObject({ id: Identifier, extends: ComponentRef }),
  z.strictObject({ id: Identifier, tasks: z.array(ComponentUse).min(1).max(50) }),
  z.strictObject({ id: Identifier, steps: z.array(ComponentUse).min(1).max(50) }),
]);
export type AddedNode = z.infer<typeof AddedNode>;

export const AddNodeOp = z.strictObject({
  op: z.literal('add_node'),
  after: Identifier.describe('id of the node it follows'),
  node: AddedNode,
});

export const RemoveNodeOp = z.strictObject({ op: z.literal('remove_node'), node: Identifier });

/** Skips a step or task of the item's chain (a node is removed with remove_node instead). */
export const SkipOp = z.strictObject({ op: z.literal('skip'), path: ScopePath });

export const ItemDraftOp = z.discriminatedUnion('op', [OverrideOp, AddNodeOp, RemoveNodeOp, SkipOp]);
export type ItemDraftOp = z.infer<typeof ItemDraftOp>;
export type OverrideOp = z.infer<typeof OverrideOp>;
export type AddNodeOp = z.infer<typeof AddNodeOp>;
export type RemoveNodeOp = z.infer<typeof RemoveNodeOp>;
export type SkipOp = z.infer<typeof SkipOp>;

export const ITEM_DRAFT_OPS_MAX = 100;
export const ItemDraftOps = z.array(ItemDraftOp).max(ITEM_DRAFT_OPS_MAX);

export const PutItemDraftBody = z.strictObject({
  ops: ItemDraftOps.describe('the whole list, replacing the stored one; an empty list deletes the draft'),
});

const passed = {
  passed: z
    .boolean()
    .describe('the item already reached the node the op acts on; a passed op is not applied'),
};
export const AnsweredOp = z.discriminatedUnion('op', [
  OverrideOp.extend(passed),
  AddNodeOp.extend(passed),
  RemoveNodeOp.extend(passed),
  SkipOp.extend(passed),
]);
export type AnsweredOp = z.infer<typeof AnsweredOp>;

export const ItemDraftProblem = z.object({ op: z.number().int(), message: z.string() });
export type ItemDraftProblem = z.infer<typeof ItemDraftProblem>;

export const AddedCheck = z.object({
  op: z.number().int(),
  node: z.string(),
  harnesses: z.array(z.string()).describe('harnesses its agent tasks run on'),
  estimate_usd: z
    .number()
    .nullable()
    .describe("average per-item cost of a node of this id over the instance's items; null when none ran"),
  estimate_runs: z.number().int().nullable().describe('how many items the estimate averages; null when none'),
});
export type AddedCheck = z.infer<typeof AddedCheck>;

export const ItemDraftAnswer = z.object({
  ops: z.array(AnsweredOp),
  problems: z.array(ItemDraftProblem),
  checks: z.object({
    budget: z.object({ spent_usd: z.number(), cap_usd: z.number().nullable() }),
    added: z.array(AddedCheck),
  }),
  nodes: z.array(ModelNode).describe('the chain with every op applied that is neither passed nor a problem'),
  base_seq: z
    .number()
    .int()
    .nullable()
    .describe("the item's latest event number when the draft was created; null with no draft"),
  updated_at: z.string().nullable(),
});
export type ItemDraftAnswer = z.infer<typeof ItemDraftAnswer>;
