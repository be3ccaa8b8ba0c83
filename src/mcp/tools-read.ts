import { z } from 'zod';
import { readGateArtifact } from '../client/item-acts.js';
import { getItem, listItems } from '../client/items.js';
import { displayStatuses } from '../contract/items.js';
import { itemCompare } from '../contract/routes/work-items/review.js';
import { searchIndex } from '../client/search.js';
import { listThreadsOf } from '../client/threads.js';
import { defineTool, READS, type ToolSpec } from './tool.js';

/** Read tools: they change nothing, so a worker may read its own item. */
export const readTools: ToolSpec[] = [
  defineTool({
    name: 'list_work_items',
    title: 'List work items',
    description:
      'List Jig work items, newest first, with their status, chain, repo and current node. Filter by status ' +
      `(comma-separated; item statuses or board names: ${displayStatuses.join(', ')}), repo path or chain. ` +
      'Use it to find an item id before acting on one.',
    kind: 'none',
    hints: READS,
    input: {
      status: z
        .string()
        .optional()
        .describe('comma-separated statuses, e.g. "paused,stopped" or "needs_you"'),
      repo: z.string().optional().describe('absolute path of a connected repository'),
      chain: z.string().optional().describe('chain id'),
      archived: z
        .enum(['true', 'false', 'all'])
        .optional()
        .describe('archived items only (true), none (false, the default), or both (all)'),
      limit: z.number().int().min(1).max(500).optional().describe('at most this many items (default 100)'),
      cursor: z.string().optional().describe('next_cursor of the previous page'),
    },
    run: (ctx, a) => listItems(ctx.client, a),
  }),
  defineTool({
    name: 'get_work_item',
    title: 'Get a work item',
    description:
      'One work item in full: status, the node it is at, why it stopped (stop.kind and stop.reason, with a ' +
      'suggested action), spend against its budget, overrides and attachments.',
    kind: 'read',
    hints: READS,
    input: {},
    run: (ctx, _a, item) => getItem(ctx.client, item),
  }),
  defineTool({
    name: 'get_gate_artifact',
    title: "Read a pending gate's document",
    description:
      'The document the pending gate of a stopped item shows the person deciding it (a spec, a plan): ' +
      'its gate, kind, path, text and digest (pass the digest to approve_gate so a person approves what they read). ' +
      'Answers an error when the item is not waiting on a gate with a document.',
    kind: 'read',
    hints: READS,
    input: {},
    run: (ctx, _a, item) => readGateArtifact(ctx.client, item),
  }),
  defineTool({
    name: 'search',
    title: 'Search',
    description:
      'Full-text search over work items, their events, review threads, documents and attachments, tracker ' +
      'issues seen by auto-intake, chains and library components; best first, each with its best passage ' +
      '(matched words between « and »). Every word must match; the last also as a prefix.',
    kind: 'none',
    hints: READS,
    input: {
      q: z.string().min(1).describe('what to look for'),
      limit: z.number().int().min(1).max(100).optional(),
    },
    run: (ctx, a) => searchIndex(ctx.client, a.q, a.limit ?? 20),
  }),
  defineTool({
    name: 'list_threads',
    title: 'List review threads',
    description: "The review threads on an item's changes; only the open ones with open_only.",
    kind: 'read',
    hints: READS,
    input: { open_only: z.boolean().optional() },
    run: (ctx, a, item) => listThreadsOf(ctx.client, item, a.open_only === true),
  }),
  defineTool({
    name: 'compare_changes',
    title: 'Compare changes',
    description:
      "Diff two points of an item's work: base (where the item's branch started), attempt:N (the worktree " +
      'as the N-th node run left it; the answer lists the attempts), last_review or latest (now, uncommitted ' +
      'work included). One page of files with per-file counts and patches; binary files are named only. ' +
      'Ask format stat for counts alone, and pass next_offset as offset for the next page.',
    kind: 'read',
    hints: READS,
    input: {
      from: z.string().optional().describe('base | attempt:N | last_review | latest (default base)'),
      to: z.string().optional().describe('base | attempt:N | last_review | latest (default latest)'),
      nodes: z.array(z.string()).optional().describe('only the files these nodes changed'),
      ignore_whitespace: z.boolean().optional(),
      format: z.enum(['patch', 'stat', 'name_only']).optional().describe('default patch'),
      offset: z.number().int().min(0).optional().describe('next_offset of the previous page'),
    },
    run: (ctx, a, item) =>
      ctx.client.call(itemCompare, {
        params: { id: item },
        query: {
          ...(a.from ? { from: a.from } : {}),
          ...(a.to ? { to: a.to } : {}),
          ...(a.nodes ? { nodes: a.nodes.join(',') } : {}),
          ...(a.ignore_whitespace ? { ignore_whitespace: '1' as const } : {}),
          ...(a.format ? { format: a.format } : {}),
          ...(a.offset !== undefined ? { offset: a.offset } : {}),
        },
      }),
  }),
];
