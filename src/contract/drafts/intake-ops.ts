import { z } from 'zod';
import { op, str, int, mapping } from './op-schema.js';

/*
 * The intake draft's ops (spec drafts.md, "Intake ops"), as the ops route takes them. The schema
 * checks only the op's name, its keys and their JSON types; a patch key the file does not take or
 * an index with no schedule is the op's own refusal (core). Values are never checked here: an
 * `interval_s` under 30 is a problem of the draft, not a refused op.
 */

export const SetIntakeOp = op('set_intake', { patch: mapping });
export const AddScheduleOp = op('add_schedule', {
  cron: str,
  repo: str,
  chain: str,
  title: str,
  description: str.optional(),
});
export const SetScheduleOp = op('set_schedule', { index: int, patch: mapping });
export const RemoveScheduleOp = op('remove_schedule', { index: int });

export const INTAKE_OP_SCHEMAS = {
  set_intake: SetIntakeOp,
  add_schedule: AddScheduleOp,
  set_schedule: SetScheduleOp,
  remove_schedule: RemoveScheduleOp,
} as const;

export type IntakeOpName = keyof typeof INTAKE_OP_SCHEMAS;
export type IntakeOp = { [K in IntakeOpName]: z.infer<(typeof INTAKE_OP_SCHEMAS)[K]> }[IntakeOpName];

/** The keys `set_intake` takes (`max_concurrent` belongs to the policy draft), with the defaults it writes. */
export const INTAKE_DEFAULTS = { enabled: false, interval_s: 300, priority_ceiling: 2, repos: [] } as const;
export const INTAKE_KEYS = Object.keys(INTAKE_DEFAULTS) as (keyof typeof INTAKE_DEFAULTS)[];

/** The keys of one `schedules:` entry, which `set_schedule` takes. */
export const SCHEDULE_KEYS = ['cron', 'repo', 'chain', 'title', 'description'] as const;
