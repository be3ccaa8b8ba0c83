import { z } from 'zod';
import { op, str, mapping } from './op-schema.js';

/*
 * The repos draft's ops (spec drafts.md, "Repos ops"), as the ops route takes them. The schema
 * checks only the op's name, its keys and their JSON types; a path not in the draft, a detected
 * entry that is not detected, or a key an entry does not take is the op's own refusal (core).
 */

export const AddRepoOp = op('add_repo', { path: str, fields: mapping.optional() });
// A key sent as null clears it, as `PATCH /api/repos` does.
export const SetRepoOp = op('set_repo', { path: str, patch: mapping });
export const RemoveRepoOp = op('remove_repo', { path: str });
export const ConnectDetectedOp = op('connect_detected', { path: str });

export const REPO_OP_SCHEMAS = {
  add_repo: AddRepoOp,
  set_repo: SetRepoOp,
  remove_repo: RemoveRepoOp,
  connect_detected: ConnectDetectedOp,
} as const;

export type RepoOpName = keyof typeof REPO_OP_SCHEMAS;
export type RepoOp = { [K in RepoOpName]: z.infer<(typeof REPO_OP_SCHEMAS)[K]> }[RepoOpName];
