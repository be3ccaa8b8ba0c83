import { z } from 'zod';
import { op, str, mapping } from './op-schema.js';

/*
 * The `harnesses` draft's ops (spec drafts.md, "Harnesses ops"), as the ops route takes them. As
 * with the chain ops, the schema checks only the op's name, its keys and their JSON types; what a
 * value means (a state that is not one of the three, a harness not in harnesses.yaml, a patch key
 * a harness does not take) is the op's own refusal, answered with its index.
 */

export const SetAccessOp = op('set_access', { harness: str, state: str });
// `null` is meaningful (it removes the key), so these fields must be sent.
export const SetAllowedToolsOp = op('set_allowed_tools', {
  tools: z.union([z.array(str), z.null()], {
    error: 'must be a list of tool names, or null to remove the list',
  }),
});
export const SetEscalationOp = op('set_escalation', {
  harness: z.union([str, z.null()], { error: 'must be a harness id, `item`, or null to remove it' }),
  grants: z.union([z.array(str), z.null()], {
    error: 'must be a list of grant names, or null to remove them',
  }),
});
export const SetHarnessOp = op('set_harness', { id: str, patch: mapping });
export const AddProfileOp = op('add_profile', { name: str, copy_from: str.optional() });
export const RenameProfileOp = op('rename_profile', { name: str, to: str });
export const RemoveProfileOp = op('remove_profile', { name: str });
export const SetProfileOp = op('set_profile', { name: str, patch: mapping });

export const HARNESS_OP_SCHEMAS = {
  set_access: SetAccessOp,
  set_allowed_tools: SetAllowedToolsOp,
  set_escalation: SetEscalationOp,
  set_harness: SetHarnessOp,
  add_profile: AddProfileOp,
  rename_profile: RenameProfileOp,
  remove_profile: RemoveProfileOp,
  set_profile: SetProfileOp,
} as const;

export type HarnessOpName = keyof typeof HARNESS_OP_SCHEMAS;
export type HarnessOp = { [K in HarnessOpName]: z.infer<(typeof HARNESS_OP_SCHEMAS)[K]> }[HarnessOpName];
export type HarnessOpOf<K extends HarnessOpName> = z.infer<(typeof HARNESS_OP_SCHEMAS)[K]>;

export const HARNESS_OP_NAMES = Object.keys(HARNESS_OP_SCHEMAS) as HarnessOpName[];

/** The three access states of a harness (spec drafts.md, "Harness access states"). */
export const ACCESS_STATES = ['available', 'override', 'never'] as const;
export type AccessState = (typeof ACCESS_STATES)[number];
