import { z } from 'zod';
import { itemStatuses, stopKinds } from './item-status.js';
import { ItemMergeRequest } from './merge-requests.js';
import { ItemWorkspace } from './item-workspace.js';
import { BeadId, ItemIssue } from './item-issues.js';
import { attachmentKinds, displayStatuses } from './item-names.js';
import { AfterIds, LinkedItem } from './items/dependencies.js';

/** Member names of the workspace `repo` names; each once. */
const Members = z
  .array(z.string().min(1))
  .min(1)
  .max(100)
  .describe('when repo names a workspace: the members to run on (default every member)');

const Overrides = z.record(z.string(), z.unknown());
/** Per node: model, effort, extra_prompt, auto_escalate, auto_escalate_stuck, auto_escalate_delay_s (items/node-override.ts). */
const NodeOverrides = Overrides.describe(
  'per node id: `model`, `effort`, `extra_prompt` (added to its agent prompts), `auto_escalate` (its own escalation task runs when stuck), `auto_escalate_stuck` and `auto_escalate_delay_s` (an escalation turn for a stuck stop there, overriding policy)',
);

/** Who filed an item: a person, a trigger or schedule, a duplicate, an agent, or auto-intake. */
export const ITEM_SOURCES = ['human', 'trigger', 'schedule', 'duplicate', 'agent', 'auto_intake'] as const;
export type ItemSource = (typeof ITEM_SOURCES)[number];

export const AttachmentKind = z.enum(attachmentKinds);
export type AttachmentKind = z.infer<typeof AttachmentKind>;

/** An attachment as sent: inline text, or a path inside the repo (read once, at intake). */
export const AttachmentInput = z.union([
  z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
  z.object({ path: z.string().min(1).max(4096) }).strict(),
]);
export type AttachmentInput = z.infer<typeof AttachmentInput>;

export const AttachmentInfo = z.object({
  kind: AttachmentKind,
  source: z.enum(['text', 'path']),
  path: z.string().nullable().describe('repo-relative path it was read from, for a path attachment'),
  bytes: z.number().int(),
  sha256: z.string(),
});

export const BudgetCap = z.object({
  cap_usd: z.number().nullable().describe("lower of the item's own cap and policy budget.work_item_usd"),
  key: z.enum(['item', 'policy']).nullable().describe('which of the two is lower; null when neither is set'),
  spent_usd: z.number(),
});
export type BudgetCap = z.infer<typeof BudgetCap>;

export { displayStatuses };

export const WorkItem = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(itemStatuses),
  display_status: z
    .enum(displayStatuses)
    .describe('what the board shows, derived from status, stop and archive'),
  archived: z.boolean(),
  chain: z.string(),
  repo: z.string().describe("the repository's path (a workspace item: its root's)"),
  workspace: ItemWorkspace.optional().describe(
    'only for an item filed on a workspace: the workspace and selected members, each with its worktree once cut',
  ),
  branch: z.string().describe('git branch the item works on (in every member too), named at intake'),
  base_branch: z.string().nullable(),
  source: z.enum(ITEM_SOURCES),
  issues: z
    .array(ItemIssue)
    .optional()
    .describe('only when it has some: the tracker issues it implements (auto-intake, implements)'),
  attachments: z.record(z.string(), AttachmentInfo),
  agent_overrides: Overrides,
  node_overrides: Overrides,
  policy_override: Overrides,
  skip_nodes: z.array(z.string()).describe('nodes the item passes without running (node_skipped)'),
  auto_gate: z
    .boolean()
    .describe(
      "a gate's reviewer agent (auto_review) decides before a person; on by default for what a person files",
    ),
  budget_cap: BudgetCap,
  spent_usd: z.number(),
  spent_tokens: z.number().int().describe('tokens over all sessions: input (cached or not) plus output'),
  current_node: z.string().nullable(),
  gate_request: z
    .number()
    .int()
    .nullable()
    .describe(
      'the gate request the item waits on at current_node (the seq of its gate_requested event), or null: approve, reject and review send it as `request`, so a decision answers only the request its sender saw',
    ),
  has_worktree: z
    .boolean()
    .describe(
      'its worktree is cut and its base recorded, so GET /api/work-items/{id}/diff can answer; false before (that route then refuses with item_not_started)',
    ),
  gate_document: z
    .string()
    .nullable()
    .optional()
    .describe(
      'while it waits at a gate that shows a document a task has written and Jig can read: the document kind (GET /api/work-items/{id}/artifact answers it); null when the gate shows none, none was written or it cannot be read. Absent where the walk is not read (a listing) or the item never started',
    ),
  gate_reject_to: z
    .string()
    .nullable()
    .optional()
    .describe(
      "only while the item waits at a gate (current_node): the exec node a reject sends it back to (the gate's reject_to, else the nearest exec node before it), or null when nothing runs before the gate: a reject is refused (409 reject_nowhere), so cancel the item or approve it",
    ),
  stop: z
    .object({
      kind: z.enum(stopKinds),
      reason: z.string(),
      suggested_action: z.object({ action: z.string(), reason: z.string() }).nullable(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  waiting_on: z
    .array(LinkedItem)
    .optional()
    .describe('only for a blocked item: the items it comes after that have not completed'),
  dependencies: z
    .array(LinkedItem)
    .optional()
    .describe('GET /api/work-items/{id} only, when it has some: the items it comes after (`after`)'),
  dependents: z
    .array(LinkedItem)
    .optional()
    .describe(
      'only when there are some. GET /api/work-items/{id}: the items that come after it; a cancel or abandon answer: those that have not ended, which it leaves blocked',
    ),
  merge_requests: z
    .array(ItemMergeRequest)
    .optional()
    .describe(
      'GET /api/work-items/{id} only, once a forge task opened one: its merge requests as the forge last answered',
    ),
});
export type WorkItem = z.infer<typeof WorkItem>;

/** `POST /api/triggers` (stable). Unknown keys are ignored, so senders can add fields safely. */
export const TriggerBody = z.object({
  title: z.string(),
  repo: z.string().describe("a connected repository's path, or a workspace's name"),
  members: Members.optional(),
  chain: z.string().optional(),
  chain_template: z.string().optional().describe('legacy name of `chain`'),
  description: z.string().default(''),
  after: AfterIds.optional(),
});
export type TriggerBody = z.infer<typeof TriggerBody>;

/** Visible ASCII, as HTTP header values carry it; long enough for a UUID or a delivery id. */
export const TriggerHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'is 1 to 255 visible ASCII characters')
    .optional()
    .describe(
      'Files the item once: a repeat with the same key within 24 h answers the first item (201, header Idempotent-Replayed: true); the same key with another body is a 422',
    ),
});

/** Node ids of the item's chain to pass without running; each skippable, none twice. */
const SkipNodes = z
  .array(z.string().min(1))
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, 'names a node twice')
  .describe('node ids of the chain to pass without running (node_skipped); each must be skippable');

export const CreateItemBody = z
  .object({
    title: z.string(),
    repo: z.string().describe("a connected repository's path, or a workspace's name"),
    members: Members.optional(),
    chain: z.string().optional(),
    chain_template: z.string().optional(),
    description: z.string().default(''),
    start: z.boolean().default(false).describe('start the item at once instead of filing it paused'),
    attachments: z
      .object({ spec: AttachmentInput.optional(), plan: AttachmentInput.optional() })
      .strict()
      .optional(),
    agent_overrides: Overrides.optional(),
    node_overrides: NodeOverrides.optional(),
    policy_override: Overrides.optional(),
    budget_usd: z.number().positive().nullable().optional().describe("the item's own dollar cap"),
    base_branch: z.string().min(1).optional(),
    skip_nodes: SkipNodes.optional(),
    auto_gate: z
      .boolean()
      .optional()
      .describe(
        "let a gate's reviewer agent decide first (default: on for items a person files, off for the rest)",
      ),
    implements: z
      .array(BeadId)
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, 'names a bead twice')
      .optional()
      .describe('beads the item implements: each closes when the item completes having changed something'),
    after: AfterIds.optional(),
  })
  .strict();
export type CreateItemBody = z.infer<typeof CreateItemBody>;

export const PatchItemBody = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    chain: z.string().optional(),
    attachments: z
      .object({ spec: AttachmentInput.nullable().optional(), plan: AttachmentInput.nullable().optional() })
      .strict()
      .optional(),
    agent_overrides: Overrides.optional(),
    node_overrides: NodeOverrides.optional(),
    policy_override: Overrides.optional(),
    budget_usd: z.number().positive().nullable().optional(),
    skip_nodes: SkipNodes.optional().describe('only before the item starts'),
    after: AfterIds.optional().describe(
      'replaces what it comes after; on a running item it applies to its next start ([] drops them all)',
    ),
  })
  .strict();
export type PatchItemBody = z.infer<typeof PatchItemBody>;

export const ListItemsQuery = z.object({
  status: z.string().optional().describe('comma-separated statuses, e.g. paused,stopped'),
  repo: z.string().optional(),
  chain: z.string().optional(),
  archived: z.enum(['true', 'false', 'all']).default('false'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().optional().describe('from next_cursor of the previous page'),
});

export const ItemsPage = z.object({
  items: z.array(WorkItem),
  next_cursor: z.string().nullable(),
  total: z.number().int(),
});

export const ReasonBody = z.object({ reason: z.string().max(10_000).optional() }).strict();

export const BulkBody = z
  .object({
    action: z.enum(['pause', 'cancel', 'archive', 'restore']),
    ids: z.array(z.string()).min(1).max(500),
    reason: z.string().max(10_000).optional(),
  })
  .strict();

export const BulkAnswer = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      ok: z.boolean(),
      status: z.number().int().describe('the HTTP status the single-item route would answer'),
      item: WorkItem.nullable(),
      detail: z.string().nullable(),
      code: z.string().nullable(),
    }),
  ),
});

export const DryRunAnswer = z.object({
  dry_run: z.literal(true),
  would_file: z.object({
    title: z.string(),
    repo: z.string(),
    workspace: ItemWorkspace.optional().describe(
      'a workspace item: the workspace and the members it would run on',
    ),
    chain: z.string(),
    status: z.enum(['paused', 'blocked', 'queued']),
    nodes: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['exec', 'gate']),
        skipped: z
          .string()
          .nullable()
          .describe(
            'why the walk will pass it without running it (skip_nodes, an attachment); null: it runs',
          ),
      }),
    ),
    gates: z.array(z.string()),
    budget_cap: BudgetCap,
    cannot_launch: z
      .array(
        z.object({
          node: z.string(),
          task: z.string().describe('the agent task path'),
          reason: z.string().describe('why each harness it may run on cannot launch here'),
        }),
      )
      .describe(
        'agent tasks of the nodes that will run that cannot start on this machine: the harness missing from harnesses.yaml or disabled, not allowed by policy, or its CLI not installed (for every fallback too); empty when all can',
      ),
  }),
});
