import { z } from 'zod';

/**
 * The result file a task may write at `$JIG_RESULT_PATH` (JSON). Unknown keys are kept, so a newer
 * task can report more than this Jig reads. A file that does not parse, or whose status is not one
 * of these, makes the task `failed`.
 */
export const FindingSeverity = z.enum(['critical', 'important', 'minor']);

export const Finding = z
  .object({
    severity: FindingSeverity,
    message: z.string().min(1),
    source_plugin: z.string().optional(),
    file: z.string().optional(),
    line: z.number().int().optional(),
    same_as: z.string().optional().describe('a tag it was shown, to say this is the same finding'),
  })
  .loose();
export type Finding = z.infer<typeof Finding>;

export const ResultFile = z
  .object({
    status: z.enum(['done', 'done_with_concerns', 'failed', 'needs_context']),
    concerns: z.string().optional(),
    question: z.string().optional(),
    findings: z.array(z.unknown()).optional().describe('invalid entries are dropped and counted'),
    verdict: z.string().optional(),
    suggested_action: z
      .object({ action: z.enum(['skip', 'retry', 'abandon']), reason: z.string() })
      .optional(),
    session_summary_ref: z.string().optional(),
    artifact_ref: z.string().optional().describe('repo-relative path of the document the task produced'),
    usage: z.record(z.string(), z.unknown()).optional(),
    cost_usd: z.number().optional(),
    total_cost_usd: z.number().optional(),
    model: z.string().optional(),
  })
  .loose();
export type ResultFile = z.infer<typeof ResultFile>;
