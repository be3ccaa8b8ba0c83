import { z } from 'zod';
import { Identifier } from './ids.js';
import { Sandbox } from './sandbox.js';

/** The four caps every scope can carry; the same names at every level keep the layering uniform. */
export const CAP_KEYS = ['time_cap_minutes', 'total_time_cap_minutes', 'token_budget', 'budget_usd'] as const;
export type CapKey = (typeof CAP_KEYS)[number];

export const capShape = {
  time_cap_minutes: z
    .number()
    .positive()
    .optional()
    .describe('running time (agent and command time), minutes'),
  total_time_cap_minutes: z
    .number()
    .positive()
    .optional()
    .describe(
      "wall clock including waits, gates and rate limits, minus manual pauses; a wait task's timeout",
    ),
  token_budget: z.number().int().positive().optional().describe('tokens, input plus output'),
  budget_usd: z.number().positive().optional().describe('US dollars'),
};

/** Git commands a worker may run without asking (exactly one plain git invocation each). */
export const Grant = z.enum(['git-commit', 'git-rebase', 'git-push']);
export type Grant = z.infer<typeof Grant>;

/**
 * `policy:` of a chain, node, step or task (and a repo): a layer that may tighten what it inherits,
 * never relax it. `max_attempts` and `timeout_minutes` apply to exec nodes (and the chain).
 */
export const ScopePolicy = z
  .object({
    ...capShape,
    allowed_tools: z
      .array(z.string().min(1))
      .optional()
      .describe('narrows the tools agents may use (intersected)'),
    deny_tools: z.array(z.string().min(1)).optional().describe('tools refused (accumulates down the layers)'),
    grants: z.array(Grant).optional().describe('git commands allowed without asking (accumulates)'),
    sandbox: Sandbox.optional().describe('set once; no narrower layer may change it'),
    allowed_harnesses: z.array(Identifier).optional().describe('harness ids tasks here may launch on'),
    escalation_harness: z.string().min(1).optional().describe('harness id for escalation turns, or `item`'),
    max_attempts: z.number().int().positive().optional().describe('fix-loop repair cycles (exec nodes)'),
    timeout_minutes: z.number().positive().optional().describe('fix-loop wall clock in minutes (exec nodes)'),
  })
  .strict();
export type ScopePolicy = z.infer<typeof ScopePolicy>;
