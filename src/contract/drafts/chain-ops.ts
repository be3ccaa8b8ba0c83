import { z } from 'zod';
import { op, str, int } from './op-schema.js';

/*
 * The chain and library ops (spec drafts.md, "Chain and library ops"), as the ops route takes them.
 * The schema checks only the op's name, its keys and their JSON types: "unknown op name, unknown
 * field, or missing required field" refuse the whole request; every other refusal (an id that is
 * not allowed, a position outside a list, nothing at a path) is the op's own, answered with its index.
 */

export const AddNodeOp = op('add_node', { at: int, id: str, kind: str });
export const AddStepOp = op('add_step', { container: str, at: int, id: str.optional() });
export const AddTaskOp = op('add_task', {
  container: str.optional(),
  step: str.optional(),
  slot: str.optional(),
  node: str.optional(),
  kind: str.optional(),
  extends: str.optional(),
  id: str.optional(),
});
export const AddHandlerOp = op('add_handler', { path: str, kind: str });
export const RemoveHandlerOp = op('remove_handler', { path: str, kind: str });
export const MoveOp = op('move', { path: str, to: int, to_step: str.optional() });
export const RemoveOp = op('remove', { path: str });
export const ExtendOp = op('extend', { node: str, base: str });
export const ChangeBaseOp = op('change_base', { node: str, base: str });
export const NewChainOp = op('new_chain', { from: str.optional() });
export const DeleteChainOp = op('delete_chain', {});
// `value` is any JSON, null included; it must be sent (null removes the key).
export const SetFieldOp = op('set_field', {
  path: str,
  field: str,
  value: z.unknown().nonoptional({ error: 'value is required (null removes the key)' }),
});
export const ResetFieldOp = op('reset_field', { path: str, field: str.optional() });
export const RenameOp = op('rename', { path: str, id: str });
export const SetFragmentOp = op('set_fragment', { path: str, yaml: str });
export const MoveToLibraryOp = op('move_to_library', { path: str, name: str });
export const AddComponentOp = op('add_component', { section: str, name: str, kind: str.optional() });
/** Jig's own op: an add-on's component copied into library.yaml (docs/addons.md, "Copy to my library"). */
export const CopyComponentOp = op('copy_component', { section: str, from: str, name: str.optional() });

export const CHAIN_OP_SCHEMAS = {
  add_node: AddNodeOp,
  add_step: AddStepOp,
  add_task: AddTaskOp,
  add_handler: AddHandlerOp,
  remove_handler: RemoveHandlerOp,
  move: MoveOp,
  remove: RemoveOp,
  extend: ExtendOp,
  change_base: ChangeBaseOp,
  new_chain: NewChainOp,
  delete_chain: DeleteChainOp,
  set_field: SetFieldOp,
  reset_field: ResetFieldOp,
  rename: RenameOp,
  set_fragment: SetFragmentOp,
  move_to_library: MoveToLibraryOp,
  add_component: AddComponentOp,
  copy_component: CopyComponentOp,
} as const;

export type ChainOpName = keyof typeof CHAIN_OP_SCHEMAS;
export type ChainOp = { [K in ChainOpName]: z.infer<(typeof CHAIN_OP_SCHEMAS)[K]> }[ChainOpName];
export type ChainOpOf<K extends ChainOpName> = z.infer<(typeof CHAIN_OP_SCHEMAS)[K]>;

export const CHAIN_OP_NAMES = Object.keys(CHAIN_OP_SCHEMAS) as ChainOpName[];

/** Ops that apply only on a chains draft, and the one only on the library. */
export const CHAINS_ONLY: readonly ChainOpName[] = [
  'add_node',
  'new_chain',
  'delete_chain',
  'move_to_library',
];
export const LIBRARY_ONLY: readonly ChainOpName[] = ['add_component', 'copy_component'];

/** The body of `POST /api/drafts/{area}/{key}/ops`: each op is checked by its name's schema. */
export const OpsBody = z
  .object({
    ops: z.array(z.object({ op: z.string() }).loose()).min(1, { error: 'ops: send at least one op' }),
  })
  .strict();
