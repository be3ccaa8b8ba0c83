import { z } from 'zod';
import { labelMergeRequest } from '../client/merge-requests.js';
import { recordTaskProgress } from '../client/item-acts.js';
import { postThreadOn, setThreadState, submitReviewOf } from '../client/threads.js';
import { askAPerson } from '../client/permission-asks.js';
import { ASK_TIMEOUT_S } from '../contract/permission-asks.js';
import { defineTool, HUMAN_NOTE, type ToolSpec, writes } from './tool.js';

const threadId = z.string().min(1).describe('the review thread id');

/** Review tools, and what a worker reports on its own item. */
export const workerTools: ToolSpec[] = [
  defineTool({
    name: 'add_review_comment',
    title: 'Comment on the changes',
    description:
      "Open a review thread on a work item's changes (a file and lines, a label, a suggestion), or reply to one.",
    kind: 'act',
    hints: writes(false, false),
    refused: 'always',
    input: {
      body: z.string().min(1),
      thread_id: threadId.optional(),
      file_path: z.string().optional(),
      start_line: z.number().int().min(1).optional(),
      end_line: z.number().int().min(1).optional(),
      side: z.enum(['old', 'new']).optional(),
      label: z.enum(['must-fix', 'question', 'nit']).optional(),
      suggestion: z.string().optional(),
    },
    run: (ctx, a, item) => postThreadOn(ctx.client, item, a),
  }),
  defineTool({
    name: 'resolve_thread',
    title: 'Resolve a review thread',
    description: 'Mark a review thread resolved.',
    kind: 'act',
    hints: writes(false, true),
    refused: 'worker',
    input: { thread_id: threadId },
    run: (ctx, a, item) => setThreadState(ctx.client, item, a.thread_id, 'resolved'),
  }),
  defineTool({
    name: 'reopen_thread',
    title: 'Reopen a review thread',
    description: 'Reopen a resolved review thread.',
    kind: 'act',
    hints: writes(false, true),
    refused: 'worker',
    input: { thread_id: threadId },
    run: (ctx, a, item) => setThreadState(ctx.client, item, a.thread_id, 'open'),
  }),
  defineTool({
    name: 'submit_review',
    title: 'Submit a review',
    description: `Finish a review of a work item's changes: comment, approve (passes the gate it waits at; refused while a must-fix thread is open) or request changes (reruns the fix target with the open threads). ${HUMAN_NOTE}`,
    kind: 'act',
    hints: writes(false, false),
    human: true,
    refused: 'always',
    input: {
      outcome: z.enum(['comment', 'approve', 'request_changes']),
      summary: z.string().optional(),
      node: z.string().optional(),
      request: z
        .number()
        .int()
        .positive()
        .optional()
        .describe(
          "at a gate: the item's gate_request the person decided on; defaults to the request open now",
        ),
    },
    run: (ctx, a, item) =>
      submitReviewOf(ctx.client, item, {
        outcome: a.outcome,
        ...(a.summary ? { summary: a.summary } : {}),
        ...(a.node ? { node: a.node } : {}),
        ...(a.request !== undefined ? { request: a.request } : {}),
      }),
  }),
  defineTool({
    name: 'report_progress',
    title: 'Report plan progress',
    description:
      'For a worker: say which task of the plan you are starting now, so the board shows it. Defaults to ' +
      'your own work item.',
    kind: 'worker',
    hints: writes(false, false),
    input: { task: z.string().trim().min(1).max(500).describe('the plan task, as the plan names it') },
    run: (ctx, a, item) => recordTaskProgress(ctx.client, item, a.task),
  }),
  defineTool({
    name: 'reply_to_thread',
    title: 'Reply to a review thread',
    description:
      'For a worker: answer a review thread on your changes, saying whether it is fixed or answered.',
    kind: 'worker',
    hints: writes(false, false),
    input: {
      thread_id: threadId,
      body: z.string().min(1),
      claim: z.enum(['fixed', 'answered', 'should_fix']).optional(),
    },
    run: (ctx, a, item) =>
      postThreadOn(ctx.client, item, {
        body: a.body,
        thread_id: a.thread_id,
        ...(a.claim ? { claim: a.claim } : {}),
      }),
  }),
  defineTool({
    name: 'set_mr_labels',
    title: 'Set merge request labels',
    description:
      "For a worker: set the labels of your work item's merge request on the forge (the whole set).",
    kind: 'worker',
    // Open world: it writes to the forge; destructive: the set replaces the labels there.
    hints: writes(true, true, true),
    input: { labels: z.array(z.string().min(1)) },
    run: (ctx, a, item) => labelMergeRequest(ctx.client, item, a.labels),
  }),
  defineTool({
    name: 'permission_request',
    title: 'Permission request',
    description:
      "Claude Code's --permission-prompt-tool for Jig's workers: the tool call waits for a person to allow or " +
      `deny it in Jig (denied when nobody answers in ${ASK_TIMEOUT_S / 60} minutes). Not for agents to call.`,
    kind: 'worker',
    hints: writes(false, false),
    textOnly: true,
    input: {
      tool_name: z.string(),
      input: z.record(z.string(), z.unknown()),
      tool_use_id: z.string().optional(),
    },
    run: (ctx, a, item) => askAPerson(ctx.client, item, a),
  }),
];
