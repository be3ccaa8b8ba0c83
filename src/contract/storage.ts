import { z } from 'zod';

/*
 * `GET /api/storage` and `POST /api/storage/cleanup` (docs/storage.md): what Jig's home takes on
 * disk, and the worktrees of ended items a clean-up would reclaim.
 */

export const StorageItem = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  archived: z.boolean(),
  worktree_path: z.string().nullable(),
  worktree_bytes: z.number().int().describe("the item's worktrees (a workspace item's members included)"),
  log_bytes: z.number().int().describe("its sessions' logs"),
});
export type StorageItem = z.infer<typeof StorageItem>;

export const StorageAnswer = z.object({
  home: z.string(),
  total_bytes: z.number().int().describe('the sum of the parts below'),
  database_bytes: z
    .number()
    .int()
    .describe('the SQLite file with its WAL; on PostgreSQL, the size of Jig’s database on its server'),
  worktrees_bytes: z.number().int().describe("everything under the home's worktrees folder"),
  logs_bytes: z.number().int().describe('session and server logs'),
  results_bytes: z.number().int(),
  attachments_bytes: z.number().int(),
  items: z.array(StorageItem).describe('items holding disk, the largest first (at most 100)'),
  reclaimable: z.object({
    items: z.number().int().describe('ended, unarchived items that still have a worktree'),
    bytes: z.number().int(),
  }),
});
export type StorageAnswer = z.infer<typeof StorageAnswer>;

export const CleanupQuery = z.object({
  dry_run: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .describe('1: only say what would go'),
  older_than_days: z.coerce
    .number()
    .int()
    .min(0)
    .max(3650)
    .default(0)
    .describe('only items that ended at least this many days ago'),
});

export const CleanupAnswer = z.object({
  dry_run: z.boolean(),
  items: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.string(),
      ended_at: z.string().nullable(),
      worktree_path: z.string().nullable(),
      bytes: z.number().int(),
    }),
  ),
  bytes: z.number().int().describe('what the worktrees listed take (dry run) or took (freed)'),
});
export type CleanupAnswer = z.infer<typeof CleanupAnswer>;
