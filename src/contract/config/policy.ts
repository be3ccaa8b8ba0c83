import { z } from 'zod';
import { ComponentRef, Identifier } from './ids.js';
import { Sandbox } from './sandbox.js';
import { CAP_KEYS, Grant, capShape } from './scope-policy.js';

export const POLICY_LEVELS = ['work_item', 'nodes', 'steps', 'tasks'] as const;
export type PolicyLevel = (typeof POLICY_LEVELS)[number];

const LevelCaps = z.object(capShape).strict();
export type LevelCaps = z.infer<typeof LevelCaps>;

const levelShape = {
  work_item: LevelCaps.optional().describe('the whole item'),
  nodes: LevelCaps.optional(),
  steps: LevelCaps.optional(),
  tasks: LevelCaps.optional(),
};
const operational = {
  max_attempts: z.number().int().positive().optional().describe('fix-loop repair cycles of an exec node'),
  timeout_minutes: z.number().positive().optional().describe("wall clock of an exec node's fix loop"),
  allowed_harnesses: z.array(Identifier).optional().describe('harness ids tasks may launch on; absent = all'),
  allowed_tools: z.array(z.string().min(1)).optional(),
};

export const PolicyDefaults = z
  .object({
    ...operational,
    escalation_harness: z.string().min(1).optional().describe('harness id, or `item`'),
    escalation_grants: z.array(Grant).optional(),
    ...levelShape,
  })
  .strict();
export type PolicyDefaults = z.infer<typeof PolicyDefaults>;
export const PolicyMaxima = z.object({ ...operational, ...levelShape }).strict();
export type PolicyMaxima = z.infer<typeof PolicyMaxima>;

const LoopLimits = z
  .object({
    attempts: z.number().int().positive().optional(),
    wall_clock_s: z.number().int().positive().optional(),
  })
  .strict();

/** A 1.x `triggers:` entry; it still fires (schedules now live in intake.yaml). */
export const LegacyTrigger = z
  .object({
    cron: z.string().min(1),
    repo: z.string().min(1),
    chain: ComponentRef.optional(),
    chain_template: ComponentRef.optional(),
    title: z.string().optional(),
    description: z.string().optional(),
  })
  .strict();

/** Fix-loop limits for a loop with no `loops:` entry, when the file has no `default:` block. */
export const LOOP_DEFAULTS = { attempts: 3, wall_clock_s: 3600 } as const;

/** Finding severities that start a fix loop when `findings.loop_severities` is not set. */
export const DEFAULT_LOOP_SEVERITIES: readonly ('critical' | 'important' | 'minor')[] = [
  'critical',
  'important',
];

/** `policy.yaml`: instance limits and the defaults/maxima every policy layer works within. */
export const PolicyFile = z
  .object({
    max_concurrent: z.number().int().min(1).default(3).describe('work items running at once'),
    default: z
      .object({
        attempts: z.number().int().positive().default(LOOP_DEFAULTS.attempts),
        wall_clock_s: z.number().int().positive().default(LOOP_DEFAULTS.wall_clock_s),
      })
      .strict()
      .default({ ...LOOP_DEFAULTS }),
    loops: z
      .record(
        z.string().regex(/^[a-z][a-z0-9_-]*\.fix_loop$/, { error: 'is not `<node id>.fix_loop`' }),
        LoopLimits,
      )
      .default({}),
    budget: z
      .object({
        work_item_usd: z.number().positive().optional(),
        daily_usd: z.number().positive().optional(),
      })
      .strict()
      .optional(),
    findings: z
      .object({ loop_severities: z.array(z.enum(['critical', 'important', 'minor'])).optional() })
      .strict()
      .optional(),
    auto_escalate_stuck: z.boolean().default(true),
    auto_escalate_stuck_cap: z.number().int().min(0).default(3),
    auto_escalate_delay_s: z.number().int().min(0).default(0),
    auto_review_attempts: z.number().int().min(0).default(1),
    rate_limit_retries: z.number().int().min(0).default(5),
    record_runs: z
      .boolean()
      .default(false)
      .describe('keep a recording of every item that completes or is cancelled (docs/chain-tests.md)'),
    forge_cli_timeout_s: z.number().int().positive().default(120),
    forge_poll_s: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('how often open merge requests are checked for being closed without merging; default 300'),
    archive: z.object({ after_days: z.number().int().positive().optional() }).strict().optional(),
    defaults: PolicyDefaults.optional(),
    maxima: PolicyMaxima.optional(),
    sandbox: Sandbox.optional().describe(
      "the jail of every repo's tasks where repos.yaml sets none (docs/sandbox.md)",
    ),
    triggers: z
      .array(LegacyTrigger)
      .optional()
      .describe('1.x schedules; still fire; move them to intake.yaml'),
  })
  .strict();
export type PolicyFile = z.infer<typeof PolicyFile>;

export { CAP_KEYS };
