import { z } from 'zod';
import { WorkItem } from './items.js';

export const ThreadLabel = z.enum(['must-fix', 'question', 'nit']);
export type ThreadLabel = z.infer<typeof ThreadLabel>;
/** What an agent says it did about a thread. */
export const ThreadClaim = z.enum(['fixed', 'answered', 'should_fix']);
export type ThreadClaim = z.infer<typeof ThreadClaim>;
export const ThreadSide = z.enum(['old', 'new']);
export const ReviewOutcome = z.enum(['approve', 'request_changes', 'comment']);
export type ReviewOutcome = z.infer<typeof ReviewOutcome>;

export const ThreadComment = z.object({
  id: z.string(),
  /** `human` for a person, `agent` for a worker of this item (it sent the x-jig-work-item header). */
  by: z.enum(['human', 'agent']),
  body: z.string(),
  claim: ThreadClaim.nullable(),
  created_at: z.string(),
});

export const ReviewThread = z.object({
  id: z.string(),
  file_path: z.string().nullable(),
  start_line: z.number().int().nullable(),
  end_line: z.number().int().nullable(),
  side: ThreadSide.nullable(),
  label: ThreadLabel.nullable(),
  suggestion: z.string().nullable(),
  state: z.enum(['open', 'resolved']),
  /** The commit the thread was made on (the worktree then, uncommitted work included). */
  anchor_sha: z.string().nullable(),
  /**
   * Where the lines are now: moved by changes above them, or null when the lines themselves
   * changed since (the thread is `outdated`) or it has no lines.
   */
  lines_now: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
  outdated: z.boolean(),
  /** The latest claim an agent made on it. */
  claim: ThreadClaim.nullable(),
  comments: z.array(ThreadComment),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReviewThread = z.infer<typeof ReviewThread>;

export const ThreadsQuery = z
  .object({ open_only: z.enum(['1', '0', 'true', 'false']).optional().describe('only threads not resolved') })
  .strict();
export const ThreadsAnswer = z.object({ threads: z.array(ReviewThread) });

const Text = z.string().trim().min(1).max(20_000);

export const ThreadBody = z
  .object({
    body: Text,
    file_path: z.string().min(1).max(4096).optional(),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
    side: ThreadSide.optional(),
    label: ThreadLabel.optional(),
    suggestion: z.string().max(20_000).optional().describe('replacement text for the lines (new side only)'),
    thread_id: z.string().min(1).max(64).optional().describe('reply to this thread instead of opening one'),
    claim: ThreadClaim.optional().describe('with thread_id: what the agent did about it'),
  })
  .strict();
export type ThreadBody = z.infer<typeof ThreadBody>;

export const ReviewBody = z
  .object({
    outcome: ReviewOutcome,
    summary: z.string().trim().max(20_000).optional(),
    node: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('request_changes: rerun this node instead of the fix target'),
    digest: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe(
        "approve at a gate: the sha256 of the gate's document as read (409 document_changed when it differs)",
      ),
    request: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        "approve or request_changes at a gate: the item's gate_request as read; 409 gate_not_waiting once it is no longer open",
      ),
  })
  .strict();

export const Review = z.object({
  id: z.string(),
  outcome: ReviewOutcome,
  summary: z.string().nullable(),
  gate: z.string().nullable(),
  /** The node a request for changes reran. */
  node: z.string().nullable(),
  /** Which fix round a request for changes started (1 for the first). */
  round: z.number().int().nullable(),
  /** The state reviewed: `last_review` in a compare. */
  sha: z.string().nullable(),
  created_at: z.string(),
});
export type Review = z.infer<typeof Review>;

export const ReviewAnswer = z.object({ review: Review, item: WorkItem });

export const FixTarget = z.object({
  /** The node a request for changes would rerun; null when none would (see `reason`). */
  node: z.string().nullable(),
  /** The gate it would be decided at, when the item waits at one. */
  gate: z.string().nullable(),
  /** The fix round it would start. */
  round: z.number().int(),
  /** Open threads that would go to the repair agent. */
  open_threads: z.number().int(),
  reason: z.string().nullable(),
});
export type FixTarget = z.infer<typeof FixTarget>;
