import { z } from 'zod';

/*
 * `GET`/`PUT /api/policy` (spec: drafts.md, Settings routes). The answer is policy.yaml as on disk
 * plus `active_count`; a body sent back may keep `active_count`, which is ignored. Keys not named
 * here are kept as sent and checked by the policy loader.
 */

const PositiveInt = z.number().int().min(1);
const Count = z.number().int().min(0);
const Obj = z.record(z.string(), z.unknown());

export const PolicyPutBody = z
  .object({
    loops: Obj.describe('`loops:` entries by fix loop (`<node id>.fix_loop`: {attempts, wall_clock_s})'),
    default: z
      .object({
        attempts: PositiveInt.describe('repair cycles per entry into a node'),
        wall_clock_s: PositiveInt.describe('wall-clock seconds one fix loop may run'),
      })
      .loose()
      .describe('the top-level `default:` block'),
    max_concurrent: PositiveInt.nullable()
      .optional()
      .describe('items running at once; omitted: the file’s (3 when the file has none)'),
    findings: Obj.nullable().optional(),
    budget: Obj.nullable().optional(),
    archive: Obj.nullable().optional(),
    triggers: z.array(z.unknown()).nullable().optional().describe('1.x schedules still held in policy.yaml'),
    rate_limit_retries: Count.nullable().optional(),
    auto_escalate_stuck: z.boolean().nullable().optional(),
    auto_escalate_stuck_cap: Count.nullable().optional(),
    auto_escalate_delay_s: Count.nullable().optional(),
    active_count: z.unknown().optional().describe('accepted and ignored (GET answers it)'),
  })
  .loose()
  .describe('merged over policy.yaml key by key: an omitted key is kept, a key sent as null is removed');
export type PolicyPutBody = z.infer<typeof PolicyPutBody>;

export const PolicyGetAnswer = z
  .object({
    max_concurrent: z.number().int().describe('the value the loaded policy runs under'),
    active_count: z.number().int().describe('work items running now'),
    loops: z.unknown().describe('as in the file; `{}` when the file has none'),
    default: z
      .unknown()
      .describe('as in the file, with `attempts` and `wall_clock_s` filled as the loader reads them'),
  })
  .loose()
  .describe('policy.yaml as on disk, with `max_concurrent` as running and `active_count` added');
export type PolicyGetAnswer = z.infer<typeof PolicyGetAnswer>;

export const PolicyPutAnswer = Obj.describe('the saved policy.yaml as JSON');
