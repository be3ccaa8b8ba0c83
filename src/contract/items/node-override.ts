import { z } from 'zod';

/**
 * One node's entry in an item's `node_overrides`: what its agent tasks run on, a text added to
 * their prompts, and how a stop at the node is escalated. Each field is optional; a key not named
 * here is kept as written (an older client's) and read by nothing.
 */
export const NodeOverrideFields = {
  model: z.string().min(1).max(200).describe("model for the node's agent tasks"),
  effort: z.string().trim().min(1).max(40).describe("effort for the node's agent tasks"),
  extra_prompt: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe("text added to the prompt of each of the node's agent tasks, after the task's own"),
  auto_escalate: z
    .boolean()
    .describe("whether the node's own `escalation` task runs when the node is stuck (default: it does)"),
  auto_escalate_stuck: z
    .boolean()
    .describe('whether a stuck stop at this node gets an escalation turn by itself (default: policy)'),
  auto_escalate_delay_s: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .describe('seconds before that turn starts (default: policy `auto_escalate_delay_s`)'),
} as const;

export const NodeOverride = z.object(NodeOverrideFields).partial().passthrough();
export type NodeOverride = z.infer<typeof NodeOverride>;
