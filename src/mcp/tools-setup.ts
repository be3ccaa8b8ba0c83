import { z } from 'zod';
import { patchItem } from '../client/item-setup.js';
import { createItem, dryRunItem } from '../client/items.js';
import { connectRepo } from '../client/repos.js';
import { AttachmentInput, AttachmentKind, CreateItemBody } from '../contract/items.js';
import { defineTool, ToolRefusal, type ToolSpec, writes } from './tool.js';

const Overrides = z.record(z.string(), z.unknown());

/*
 * The create tool takes what `POST /api/work-items` takes, read from the contract (a field the API
 * gains shows up here), minus `start` (everything an agent files lands paused) and the 1.x
 * `chain_template`; `policy` is the API's `policy_override`, by its name in kraft-notes §6.
 */
const createInput = CreateItemBody.omit({ start: true, chain_template: true, policy_override: true }).extend({
  title: z.string().describe('one line of plain text, not blank'),
  repo: z
    .string()
    .optional()
    .describe(
      "absolute path of a connected repository, or a workspace's name (then `members` selects some); defaults to the repository of the cwd",
    ),
  chain: z.string().optional().describe("chain to run; defaults to the repository's default chain"),
  description: z.string().optional().describe('what the work is about, as the agents will read it'),
  attachments: z
    .object({ spec: AttachmentInput.optional(), plan: AttachmentInput.optional() })
    .strict()
    .optional()
    .describe(
      'a spec and/or a plan, each {text} inline or {path} inside the repository; a node that only writes that document, and the gate showing it, are skipped',
    ),
  policy: Overrides.optional().describe(
    'the item\'s own policy override, PATH.FIELD keys, e.g. {"verification.max_attempts": 3}',
  ),
  dry_run: z
    .boolean()
    .optional()
    .describe(
      'true: file nothing; answer what would be filed: the nodes that run, the gates, the cap, and the agent tasks this machine cannot launch (cannot_launch)',
    ),
}).shape;

const setupNote = 'Only before the item starts (the API answers 409 once it has).';

/** Filing work, connecting a repository, and the setup an item takes before it starts. */
export const setupTools: ToolSpec[] = [
  defineTool({
    name: 'create_work_item',
    title: 'File a work item',
    description:
      'File a Jig work item: a title and a repository, run through a chain of agent tasks, commands and ' +
      'human gates. It is filed paused: nothing runs until resume_work_item (or a person) starts it. ' +
      'Answers the item, with its id (with dry_run: what would be filed, and the agent tasks that cannot start here).',
    kind: 'none',
    hints: writes(false, false),
    input: createInput,
    run: async (ctx, a) => {
      const { policy, dry_run: dry, ...rest } = a;
      const repo = a.repo ?? ctx.cwdRepo;
      if (!repo) throw new ToolRefusal('create_work_item needs repo: the cwd is not inside a git repository');
      const body = { ...rest, repo, policy_override: policy, start: false };
      return dry ? dryRunItem(ctx.client, body) : createItem(ctx.client, body);
    },
  }),
  defineTool({
    name: 'ensure_repo',
    title: 'Connect a repository',
    description:
      'Make sure a git repository is connected to Jig (work items can only be filed on connected ' +
      'repositories): connects it, or re-probes it when it already is. Answers the repository and whether it was created.',
    kind: 'none',
    hints: writes(false, true),
    input: {
      path: z.string().min(1).describe('absolute path of the repository'),
      test_command: z.string().optional().describe('the command that runs its tests ("" for none)'),
      setup_command: z.string().optional().describe('what runs in each new worktree ("" for nothing)'),
      default_chain: z.string().optional().describe('chain for items filed without one'),
    },
    run: (ctx, a) => connectRepo(ctx.client, a),
  }),
  defineTool({
    name: 'set_chain',
    title: "Change a work item's chain",
    description: `Set the chain a work item runs. ${setupNote}`,
    kind: 'act',
    hints: writes(true, true),
    refused: 'worker',
    input: { chain: z.string().min(1).describe('a chain id of the library') },
    run: (ctx, a, item) => patchItem(ctx.client, item, { chain: a.chain }),
  }),
  defineTool({
    name: 'set_attachments',
    title: "Change a work item's spec or plan",
    description: `Attach a spec and/or a plan ({text} inline or {path} inside the repository), or drop one. ${setupNote}`,
    kind: 'act',
    hints: writes(true, true),
    refused: 'worker',
    input: {
      spec: AttachmentInput.optional(),
      plan: AttachmentInput.optional(),
      drop: z.array(AttachmentKind).optional().describe('attachments to remove'),
    },
    run: (ctx, a, item) => {
      const attachments: { spec?: AttachmentInput | null; plan?: AttachmentInput | null } = {};
      for (const kind of a.drop ?? []) attachments[kind] = null;
      if (a.spec) attachments.spec = a.spec;
      if (a.plan) attachments.plan = a.plan;
      if (Object.keys(attachments).length === 0)
        throw new ToolRefusal('set_attachments needs spec, plan or drop');
      return patchItem(ctx.client, item, { attachments });
    },
  }),
  defineTool({
    name: 'set_agent_overrides',
    title: "Set a work item's model and effort",
    description: `Replace the item's override of model, effort and escalation model for all its agent tasks; clear drops it. ${setupNote}`,
    kind: 'act',
    hints: writes(true, true),
    refused: 'worker',
    input: {
      model: z.string().min(1).optional(),
      effort: z.string().min(1).optional(),
      escalate_model: z.string().min(1).optional().describe('model for escalation turns'),
      clear: z.boolean().optional().describe('drop the override'),
    },
    run: (ctx, a, item) => {
      const { clear, ...values } = a;
      const set = Object.keys(values).length > 0;
      if (clear === set)
        throw new ToolRefusal('set_agent_overrides needs model, effort or escalate_model, or clear alone');
      return patchItem(ctx.client, item, { agent_overrides: values });
    },
  }),
  defineTool({
    name: 'set_node_overrides',
    title: "Set a work item's per-node overrides",
    description:
      'Replace the per-node overrides of a work item: {node id: {model, effort}}; {} drops them all. ' +
      setupNote,
    kind: 'act',
    hints: writes(true, true),
    refused: 'worker',
    input: {
      node_overrides: z.record(z.string(), z.object({ model: z.string(), effort: z.string() }).partial()),
    },
    run: (ctx, a, item) => patchItem(ctx.client, item, { node_overrides: a.node_overrides }),
  }),
  defineTool({
    name: 'set_work_item_policy',
    title: "Set a work item's policy override",
    description:
      "Replace the item's whole policy override: PATH.FIELD keys (e.g. verification.max_attempts) with " +
      `their values; {} drops it. ${setupNote}`,
    kind: 'act',
    hints: writes(true, true),
    refused: 'worker',
    input: { policy: Overrides },
    run: (ctx, a, item) => patchItem(ctx.client, item, { policy_override: a.policy }),
  }),
];
