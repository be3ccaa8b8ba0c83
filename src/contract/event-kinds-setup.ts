import { z } from 'zod';
import { kind, str } from './event-kind-parts.js';

/** The event kinds of what a worktree's setup command wrote, part of the one catalogue (event-kinds.ts). */
export const setupEventKinds = {
  setup_output_kept_out: kind(
    "The setup command left files uncommitted in the new worktree: they are kept out of the item's diff and commits (docs/chains.md, Starting).",
    z.strictObject({
      member: str.optional(),
      created: z.array(str).describe('paths setup created (a folder ends with /), excluded in this worktree'),
      changed: z.array(str).describe('tracked files setup changed, marked skip-worktree in this worktree'),
    }),
  ),
  setup_output_released: kind(
    "Files the setup command wrote were changed since (by a task or a person): from this step on they are the item's change.",
    z.strictObject({ member: str.optional(), paths: z.array(str) }),
  ),
};
