import { z } from 'zod';
import type { JigClient } from '../client/http.js';
import { approveGate, decisionTarget, raiseBudget, rejectGate } from '../client/item-acts.js';
import { completeByHand, escalateItem, getItem, moveItem, runMove, unblock } from '../client/items.js';
import { defineTool, HUMAN_NOTE, ToolRefusal, type ToolSpec, writes } from './tool.js';

/**
 * The gate named, else the one the item waits on now, and the gate request decided on: the one
 * given, else the one the item shows now (never a later one).
 */
async function gateOf(
  c: JigClient,
  item: string,
  a: { gate?: string | undefined; request?: number | undefined },
): Promise<{ gate: string; request: number | undefined }> {
  const now = await getItem(c, item);
  const target = decisionTarget(now, a.gate);
  if (!target)
    throw new ToolRefusal(
      `work item ${item} is not waiting on a gate (status ${now.status}${now.current_node ? ` at ${now.current_node}` : ''}): nothing to decide`,
    );
  return { gate: target.gate, request: a.request ?? target.request };
}

const requestInput = z
  .number()
  .int()
  .positive()
  .optional()
  .describe(
    "the item's gate_request the person decided on (get_work_item shows it); defaults to the request open now. A request answered or superseded since is refused (gate_not_waiting)",
  );

const gateInput = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('the gate node id; defaults to the gate the item waits on now');

/** Acts on an item. A worker may not use them on its own item; the human ones say to ask a person. */
export const actTools: ToolSpec[] = [
  defineTool({
    name: 'approve_gate',
    title: 'Approve a gate',
    description: `Approve the human gate a work item is stopped on; the chain goes on to its next node. ${HUMAN_NOTE}`,
    kind: 'act',
    // Not idempotent: the same call later approves the gate the item waits at then.
    hints: writes(false, false),
    human: true,
    refused: 'always',
    input: {
      gate: gateInput,
      request: requestInput,
      digest: z
        .string()
        .optional()
        .describe("get_gate_artifact's digest: approve only if the document is still what the person read"),
    },
    run: async (ctx, a, item) => {
      const { gate, request } = await gateOf(ctx.client, item, a);
      return approveGate(ctx.client, item, gate, { digest: a.digest, request });
    },
  }),
  defineTool({
    name: 'reject_gate',
    title: 'Reject a gate',
    description:
      "Reject the human gate a work item is stopped on: the chain goes back to the gate's reject_to node " +
      `(or node) and the note reaches the next agent as a steer. ${HUMAN_NOTE}`,
    kind: 'act',
    // Not idempotent: the same call later rejects the gate the item waits at then.
    hints: writes(false, false),
    human: true,
    refused: 'always',
    input: {
      note: z.string().min(1).describe('what must change, as the next agent will read it'),
      gate: gateInput,
      request: requestInput,
      node: z.string().min(1).optional().describe("the node to go back to instead of the gate's reject_to"),
    },
    run: async (ctx, a, item) => {
      const { gate, request } = await gateOf(ctx.client, item, a);
      return rejectGate(ctx.client, item, gate, a.note, { node: a.node, request });
    },
  }),
  defineTool({
    name: 'pause_work_item',
    title: 'Pause a work item',
    description:
      'Stop a running or queued work item; its agent sessions end. resume_work_item starts it again.',
    kind: 'act',
    hints: writes(false, true),
    refused: 'worker',
    input: {},
    run: (ctx, _a, item) => runMove(ctx.client, item, 'pause', {}),
  }),
  defineTool({
    name: 'resume_work_item',
    title: 'Resume a work item',
    description:
      'Start a paused work item (items filed by an agent land paused), or queue it when no slot is free. ' +
      'An optional steer reaches the next agent launch; steers reach the next launch of the tasks they name.',
    kind: 'act',
    hints: writes(false, true),
    refused: 'worker',
    input: {
      steer: z.string().min(1).optional().describe('a note for the next agent launch'),
      steers: z
        .record(z.string(), z.string().min(1))
        .optional()
        .describe('a note per agent task, by task path (node.step.task), for the next launch of that task'),
    },
    run: (ctx, a, item) =>
      runMove(ctx.client, item, 'resume', { note: a.steer, ...(a.steers ? { steers: a.steers } : {}) }),
  }),
  defineTool({
    name: 'unblock_work_item',
    title: 'Unblock a work item',
    description:
      'Drop what a work item comes after (one dependency, or every one): a blocked item with nothing left to ' +
      'wait on starts. Answers what was dropped, what it still waits on, and its status.',
    kind: 'act',
    hints: writes(false, true),
    refused: 'worker',
    input: {
      dependency: z.string().min(1).optional().describe('the one dependency to drop (default: all of them)'),
    },
    run: (ctx, a, item) => unblock(ctx.client, item, a.dependency),
  }),
  defineTool({
    name: 'retry_work_item',
    title: 'Retry a work item',
    description:
      'Rerun the node a stopped work item stopped on, or from an earlier path (node, node.step or ' +
      'node.step.task). The only way back onto a stopped item; the steer reaches the next agent launch. ' +
      'The retried task goes on in the agent session it stopped in, unless restart asks for a fresh one.',
    kind: 'act',
    hints: writes(false, false),
    refused: 'worker',
    input: {
      steer: z.string().min(1).optional().describe('a note for the next agent launch'),
      path: z.string().optional().describe('node, node.step or node.step.task to rerun from'),
      restart: z
        .boolean()
        .optional()
        .describe('a fresh agent session instead of going on in the one that stopped'),
      model: z.string().optional().describe("model for the retried node's agent tasks"),
      effort: z.string().optional().describe("effort for the retried node's agent tasks"),
    },
    run: (ctx, a, item) => runMove(ctx.client, item, 'retry', a),
  }),
  defineTool({
    name: 'raise_budget',
    title: "Raise a work item's budget",
    description:
      "Raise the work item's own dollar cap above what it has spent; an item stopped on its budget runs " +
      `again. ${HUMAN_NOTE}`,
    kind: 'act',
    hints: writes(false, true),
    human: true,
    refused: 'worker',
    input: { budget_usd: z.number().positive().describe('the new cap in US dollars') },
    run: (ctx, a, item) => raiseBudget(ctx.client, item, a.budget_usd),
  }),
  defineTool({
    name: 'skip_work_item',
    title: 'Skip the current node',
    description:
      'Advance a work item past its current node or gate without running it; with a path, mark a node still ' +
      `to come, or a step or task of the current node, to pass. ${HUMAN_NOTE}`,
    kind: 'act',
    // Destructive: the node's work is passed over; not idempotent: again, it passes the next one.
    hints: writes(true, false),
    human: true,
    refused: 'worker',
    input: {
      note: z.string().min(1).optional().describe('why, kept with the move'),
      path: z
        .string()
        .optional()
        .describe('what to pass: a node still to come, or node.step / node.step.task of the current node'),
    },
    run: (ctx, a, item) => runMove(ctx.client, item, 'skip', { note: a.note, path: a.path }),
  }),
  defineTool({
    name: 'complete_work_item',
    title: 'Complete a work item by hand',
    description: `End a work item as completed, whatever node it is at. ${HUMAN_NOTE}`,
    kind: 'act',
    // Open world: it closes the tracker issues the item implements.
    hints: writes(true, true, true),
    human: true,
    refused: 'worker',
    input: {
      reason: z.string().max(10_000).optional().describe('why it is done'),
      close_beads: z
        .boolean()
        .optional()
        .describe('close the beads and issues it implements even if its branch changed nothing'),
    },
    run: (ctx, a, item) => completeByHand(ctx.client, item, a.reason, a.close_beads),
  }),
  defineTool({
    name: 'cancel_work_item',
    title: 'Cancel a work item',
    description: `End a work item; its worktree and branch are kept. ${HUMAN_NOTE}`,
    kind: 'act',
    hints: writes(true, true),
    human: true,
    refused: 'worker',
    input: { reason: z.string().max(10_000).optional().describe('why it is cancelled') },
    run: (ctx, a, item) => moveItem(ctx.client, item, 'cancel', a.reason),
  }),
  defineTool({
    name: 'escalate_work_item',
    title: 'Escalate a stopped work item',
    description:
      'Send a message to an agent that helps with a stopped work item (refused when a spend cap stopped it). ' +
      'Answers once that agent has started.',
    kind: 'act',
    hints: writes(false, false),
    refused: 'worker',
    input: {
      message: z.string().min(1).describe('what the helping agent should look at or do'),
      new_thread: z
        .boolean()
        .optional()
        .describe("a new conversation instead of going on in the item's last escalation turn"),
    },
    run: (ctx, a, item) => escalateItem(ctx.client, item, a.message, a.new_thread === true),
  }),
];
