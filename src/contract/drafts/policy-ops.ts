import { z } from 'zod';
import { op, str, int } from './op-schema.js';

/*
 * The policy draft's ops (spec drafts.md, "Policy ops"), as the ops route takes them. The schemas
 * check only names, keys and JSON types; which `scope`/`key` pairs exist is the op's own refusal.
 */

// `value` is any JSON; null or leaving it out removes the key.
export const SetValueOp = op('set_value', { scope: str, key: str, value: z.unknown().optional() });
export const SetLoopOp = op('set_loop', {
  key: str,
  max_attempts: int.optional(),
  wall_clock_s: int.optional(),
});
export const RemoveLoopOp = op('remove_loop', { key: str });

export const POLICY_OP_SCHEMAS = {
  set_value: SetValueOp,
  set_loop: SetLoopOp,
  remove_loop: RemoveLoopOp,
} as const;

export type PolicyOpName = keyof typeof POLICY_OP_SCHEMAS;
export type PolicyOp = { [K in PolicyOpName]: z.infer<(typeof POLICY_OP_SCHEMAS)[K]> }[PolicyOpName];
