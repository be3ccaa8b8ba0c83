import { z } from 'zod';
import { bool, kind, nullableStr, num, str } from './event-kind-parts.js';
import { dependencyEventKinds } from './event-kinds-dependencies.js';
import { escalationEventKinds } from './event-kinds-escalation.js';
import { forgeEventKinds } from './event-kinds-forge.js';
import { intakeEventKinds, IssueRef } from './event-kinds-intake.js';
import { notifyEventKinds } from './event-kinds-notify.js';
import { setupEventKinds } from './event-kinds-setup.js';
import { ScheduleSource } from './intake-route.js';
import { itemStatuses } from './item-status.js';
import { judgeVerdicts } from './verdicts.js';
import { AttachmentKind, ITEM_SOURCES } from './items.js';
import { FindingSeverity } from './result-file.js';

/**
 * The one event catalogue: every kind of event Jig records, with what it means and the payload it
 * carries. `docs/events.md` lists every kind with its payload keys and a test checks both ways; the
 * event log's `emit` is typed against it, so a kind or a payload key that is not here does not
 * compile. Payloads are strict objects: a key the code writes is declared here, optional when the
 * code writes it only sometimes. Kinds are never renamed or removed within a major version, and
 * payload keys are only ever added.
 */

const ItemStatus = z.enum(itemStatuses);
const Empty = z.strictObject({});
/** A person's move of the state table: the status it left, and the reason when one was given. */
const Move = z.strictObject({ from: ItemStatus, reason: str.optional() });
/** A change of a setting: its value before and after. */
const Change = <T extends z.ZodType>(t: T) => z.strictObject({ from: t, to: t });
/**
 * An override as set: open data by design (the item's own agent, node or policy overrides, whose
 * keys are checked where they are set, not here).
 */
const Override = z.strictObject({ value: z.record(z.string(), z.unknown()) });
/** A start's note for the next launch, and its notes for the next launch of named tasks. */
const StartPayload = z.strictObject({
  status: z.enum(['running', 'queued']),
  note: str.optional(),
  steers: z.record(z.string(), str).optional(),
});
/** A wall clock that ran out (`total_time_cap_minutes`, or a gate's `timeout`). */
const WallClock = z.strictObject({
  clock: z.literal('total'),
  scope: z.enum(['task', 'step', 'node', 'gate', 'work_item']),
  path: str,
  key: z.enum(['total_time_cap_minutes', 'timeout']),
  limit_minutes: num,
  elapsed_minutes: num,
  from: str.describe('the status it was in: running, queued, stopped:gate, stopped:rate_limit'),
});
const Finding = z.strictObject({
  tag: str,
  severity: FindingSeverity,
  message: str,
  file: str.optional(),
  line: num.optional(),
  task: str,
  /** The workspace member whose run reported it. */
  member: str.optional(),
  synthetic: bool.optional(),
});
/** An auto review's session, on a gate decided by the reviewer (`by: jig`). */
const autoReview = str.optional();

export const eventCatalogue = {
  // ---------- filing and editing an item ----------
  work_item_created: kind(
    'An item is filed (trigger, board, CLI, schedule, duplicate).',
    z.strictObject({
      title: str,
      repo: str,
      chain: str,
      branch: str,
      source: z.enum(ITEM_SOURCES),
      status: ItemStatus,
      workspace: str.optional(),
      members: z.array(str).optional(),
      issues: z.array(IssueRef).optional(),
      duplicate_of: str.optional(),
      after: z.array(str).optional(),
      schedule: z.strictObject({ index: num, cron: str, source: ScheduleSource, minute: str }).optional(),
    }),
  ),
  work_item_attachments: kind(
    'A spec or plan was attached at intake.',
    z.strictObject({ kinds: z.array(AttachmentKind) }),
  ),
  title_changed: kind('The title was edited.', Change(str)),
  description_changed: kind('The description was edited.', Empty),
  chain_changed: kind('The chain was changed before the item started.', Change(str)),
  agent_overrides_changed: kind("The item's agent overrides were set.", Override),
  node_overrides_changed: kind(
    "The item's node overrides were set (PATCH, or a retry's task_config).",
    Override,
  ),
  policy_override_changed: kind("The item's policy override was set.", Override),
  budget_changed: kind("The item's own dollar cap changed.", Change(num.nullable())),
  skip_nodes_changed: kind(
    'The nodes the item passes without running were set before it started, or a person marked one still to come (`skip --path`).',
    z.strictObject({ from: z.array(str), to: z.array(str), note: str.optional() }),
  ),
  attachments_changed: kind(
    'An attachment was set or removed after intake.',
    z.strictObject({ kinds: z.array(str) }),
  ),

  // ---------- a person's moves ----------
  work_item_cancelled: kind('Cancelled; worktree and branch kept.', Move),
  work_item_manually_completed: kind(
    'Completed by hand; with `close_beads` its issues close though nothing changed on its branch.',
    Move.extend({ close_beads: bool.optional() }),
  ),
  work_item_abandoned: kind('Abandoned; its worktree and branch are deleted next.', Move),
  work_item_archived: kind('Archived; its worktree is removed next.', Move),
  work_item_restored: kind('Back under Done.', Move),
  work_item_paused: kind('A running or queued item was paused.', Move),
  worktree_reclaimed: kind(
    'After an archive, an abandon or the storage clean-up (`cleanup`): the worktree was removed (and for an abandon the branch deleted).',
    z.strictObject({
      worktree_removed: bool,
      branch_deleted: bool.optional(),
      cleanup: bool.optional(),
      members: z
        .array(z.strictObject({ member: str, worktree_removed: bool, branch_deleted: bool.optional() }))
        .optional(),
    }),
  ),
  work_item_started: kind(
    'A paused item was started for the first time (it runs, or waits for a slot).',
    StartPayload,
  ),
  work_item_resumed: kind('A paused item that had started was resumed.', StartPayload),
  work_item_queued: kind(
    'Asked to run while max_concurrent items run: it waits for a slot.',
    z.strictObject({ max_concurrent: num }),
  ),
  work_item_dequeued: kind('A slot freed up: the oldest queued item runs.', Empty),
  steer_context_set: kind(
    'A note for the next agent launch was stored on a paused or stopped item.',
    z.strictObject({ note: str }),
  ),
  work_item_retried: kind(
    'A stopped item runs again (a person, or an escalation agent suggesting retry).',
    z.strictObject({
      node: nullableStr,
      from: nullableStr,
      step: nullableStr,
      task: nullableStr,
      steer: str.optional(),
      restart: bool.optional().describe('a fresh agent session was asked for'),
      resumes: str.optional().describe('the agent session whose CLI session the rerun goes on in'),
    }),
  ),
  node_skipped: kind(
    'A person advanced past the current node or gate without running it, or the walk passed one the item was filed to skip (`skip_nodes`).',
    z.strictObject({
      node: str,
      path: str.optional().describe('the step or task of the node marked to pass, when not the whole node'),
      note: str.optional(),
    }),
  ),
  chain_revised: kind(
    "The item's own chain was revised (an item draft applied); a running item takes it at its next node boundary.",
    z.strictObject({
      source: z.enum(['draft']),
      added: z.array(str).describe('ids of the nodes added'),
      removed: z.array(str).describe('ids of the nodes removed'),
      overridden: z.array(str).describe('paths whose task_config or policy was overridden'),
    }),
  ),
  scope_skipped: kind(
    "A step or task of the item's chain is to be passed without running (an item draft's skip).",
    z.strictObject({ path: str, node: str, source: z.enum(['draft']) }),
  ),
  plan_progress: kind('A worker reported starting a task of its plan.', z.strictObject({ task: str })),
  budget_raised: kind(
    "The item's own dollar cap was raised; an item stopped on its budget runs again.",
    z.strictObject({ from: num.nullable(), to: num, spent_usd: num, retried: bool }),
  ),

  // ---------- the walk ----------
  worktree_prepared: kind(
    "The item's worktree was cut and its repo's local_files copied (a workspace item: one per member too).",
    z.strictObject({
      member: str.optional(),
      path: str,
      branch: str,
      base_branch: str,
      base_ref: str,
      local_files: z.array(str),
      local_files_skipped: z.array(z.strictObject({ path: str, reason: str, detail: str })),
    }),
  ),
  root_pointers_bumped: kind(
    "A workspace item's root got a commit moving its members' submodule pointers (root_pointer_default: bump).",
    z.strictObject({
      commit: str,
      members: z.array(z.strictObject({ member: str, path: str, from: str, to: str })),
    }),
  ),
  node_started: kind(
    'The walk entered a node (`entry` when an escalation gave it a fresh entry).',
    z.strictObject({ node: str, step: num, entry: num.optional() }),
  ),
  node_completed: kind(
    'A node ended well and the walk moves on (downgraded when its judge let findings stand).',
    z.strictObject({
      node: str,
      downgraded: bool.optional(),
      unresolved: z.array(str).optional(),
      concerns: str.optional(),
    }),
  ),
  work_item_completed: kind('The walk passed the last node: the item is done.', Empty),
  work_item_needs_human: kind(
    'The item stopped for a person (any stop but a gate); `kind` is its stop kind.',
    z.strictObject({ kind: str, reason: str, session: str.optional() }),
  ),
  node_recovery_started: kind(
    'A task of the node failed and its nearest on_failure plan starts.',
    z.strictObject({ node: str, plan: str, failed: z.array(str), entry: num }),
  ),
  findings_measured: kind(
    "The node's steps ran and their findings were gathered.",
    z.strictObject({
      node: str,
      entry: num,
      round: num,
      findings: z.array(Finding),
      dropped: num,
      failed: z.array(str),
      loop_severities: z.array(str),
      loop_open: bool,
    }),
  ),
  judge_verdict: kind(
    "The fix loop's judge reported.",
    z.strictObject({
      node: str,
      cycle: num,
      verdict: nullableStr,
      applied: z.enum(judgeVerdicts),
      concerns: nullableStr,
      session: nullableStr,
    }),
  ),
  fix_cycle_started: kind(
    'A repair starts.',
    z.strictObject({ node: str, cycle: num, attempts: num, wall_clock_s: num, findings: z.array(str) }),
  ),
  fix_cycle_refunded: kind(
    'A repair never really ran: the cycle is not counted.',
    z.strictObject({ node: str, cycle: num, reason: str }),
  ),
  node_stuck: kind(
    'The fix loop gave up on the node.',
    z.strictObject({ node: str, reason: str, escalation: nullableStr }),
  ),
  stuck_escalation_started: kind(
    "The node's escalation task starts.",
    z.strictObject({ node: str, task: str, reason: str }),
  ),
  stuck_escalation_finished: kind(
    "The node's escalation task ended; when it succeeded the node gets a fresh entry.",
    z.strictObject({ node: str, task: str, status: str, session: nullableStr, fresh_entry: bool }),
  ),
  read_only_violated: kind(
    'A read_only step changed the worktree; the item stops.',
    z.strictObject({ node: str, step: str, before: str, after: str }),
  ),

  // ---------- gates ----------
  gate_requested: kind(
    'The walk reached a gate: the item stops for a person to approve or reject it.',
    z.strictObject({ gate: nullableStr, message: str }),
  ),
  gate_auto_review_started: kind(
    "A gate's auto_review agent starts.",
    z.strictObject({ gate: str, attempt: num }),
  ),
  gate_auto_review_finished: kind(
    'The gate reviewer ended; Jig applies its verdict.',
    z.strictObject({ gate: str, session: str, status: str, verdict: nullableStr, concerns: str.optional() }),
  ),
  gate_approved: kind(
    "A gate was approved; `request` is the gate request a person's decision answered (its seq).",
    z.strictObject({ gate: str, request: num.optional(), auto_review: autoReview }),
  ),
  gate_rejected: kind(
    'A gate was rejected: the walk goes back, or stays when its reject loop is used up (then the gate asks again).',
    z.union([
      z.strictObject({
        gate: str,
        note: str,
        reject_to: str,
        count: num,
        request: num.optional(),
        auto_review: autoReview,
      }),
      z.strictObject({
        gate: str,
        note: str,
        exhausted: z.literal(true),
        request: num.optional(),
        auto_review: autoReview,
      }),
    ]),
  ),
  gate_timed_out: kind("A gate's timeout passed while it waited; the item stops with kind cap.", WallClock),

  // ---------- sessions ----------
  worker_session_started: kind(
    'A task process started (a command, a builtin or an agent CLI).',
    z.strictObject({
      session: str,
      task: str,
      member: str.optional(),
      kind: str,
      pid: num,
      argv: z.array(str),
      harness: str.optional(),
      model: nullableStr.optional(),
      ignored: z
        .array(str)
        .optional()
        .describe(
          "what the agent launch left out and why (an option its CLI lacks, a mode that would skip the task's tool lists)",
        ),
      sandbox: z
        .strictObject({ kind: z.enum(['bubblewrap', 'podman', 'docker']), network: str })
        .optional()
        .describe('the jail it ran in (docs/sandbox.md); absent: none'),
      worker: str.optional(),
    }),
  ),
  sandbox_egress_denied: kind(
    "A sandboxed task's egress proxy refused a host (docs/sandbox.md): once per host and port a session tried, with how often.",
    z.strictObject({
      session: str,
      task: str,
      host: str,
      port: num,
      reason: str,
      count: num,
      at: str.describe('the first refusal'),
    }),
  ),
  worker_session_exited: kind(
    'A task process ended and its status was decided.',
    z.strictObject({
      session: str,
      task: str,
      status: str,
      exit_code: num.nullable(),
      note: str.optional(),
    }),
  ),
  session_reattached: kind(
    'At start, a session still running from before the restart was adopted.',
    z.strictObject({ session: str, pid: num.nullable() }),
  ),
  work_item_reclaimed: kind(
    'Another process took over an item whose worker went silent (docs/scale-out.md): its sessions there are listed as paused and the node runs again.',
    z.strictObject({ worker: str, from: str, generation: num, sessions: z.array(str) }),
  ),
  session_fenced: kind(
    'A worker started again found a session of its own still running that another process had taken over while it was silent, and ended it.',
    z.strictObject({ session: str, pid: num, worker: str }),
  ),
  session_resolved_after_restart: kind(
    'At start, a session that ended while the server was away is resolved from its files.',
    z.strictObject({ session: str, pid: num.nullable() }),
  ),
  time_cap_reached: kind(
    "A cap on time was reached: a task's running time, or a wall clock (the item stops).",
    z.union([z.strictObject({ session: str, task: str, cap_s: num }), WallClock]),
  ),
  rate_limit_hit: kind(
    "An agent's provider rate-limited it; the harness+model is skipped until the reset.",
    z.strictObject({ task: str, session: str, harness: str, model: nullableStr, resets_at: str }),
  ),
  launch_fallback: kind(
    'A launch candidate could not run; the next is tried.',
    z.strictObject({ task: str, from: num, to: num, reason: str }),
  ),
  launch_fallback_exhausted: kind(
    'No launch candidate could run.',
    z.strictObject({
      task: str,
      candidates: num,
      resets_at: str.optional(),
      unavailable: z.array(str),
    }),
  ),
  work_item_parked: kind(
    'Every launch was rate limited: the item retries by itself at the reset.',
    z.strictObject({ until: str, retry: num, of: num }),
  ),
  work_item_unparked: kind('The reset passed; the item runs the step again.', Empty),

  // ---------- escalation ----------
  ...escalationEventKinds,

  // ---------- the base branch ----------
  base_change_detected: kind(
    'A node with on_base_changed found the base branch moved since the pinned commit.',
    z.strictObject({ node: str, from: nullableStr, to: str }),
  ),
  base_change_restart: kind(
    'The branch is on the new base: it is pinned and the walk restarts.',
    z.strictObject({ node: str, from: nullableStr, to: str, restart_from: str, count: num, how: str }),
  ),
  base_ref_moved: kind(
    'A rebase moved the branch onto a newer base; the new base is pinned, nothing restarts.',
    z.strictObject({ node: str, from: nullableStr, to: str, how: str, member: str.optional() }),
  ),
  rebase_conflict: kind(
    'A rebase conflicted and was aborted.',
    z.strictObject({
      node: str,
      task: str,
      session: nullableStr,
      base_tip: str,
      files: z.array(str),
      plan: nullableStr,
      member: str.optional(),
    }),
  ),
  worktree_rebase_verified: kind(
    'After the on_conflict plan, the branch contains the new base and no rebase is left open.',
    z.strictObject({ node: str, base_tip: str, plan: str }),
  ),
  thread_updated: kind(
    'A review thread was opened, answered, resolved or reopened; `by: agent` for a worker of the item.',
    z.strictObject({
      thread: str,
      action: z.enum(['opened', 'replied', 'resolved', 'reopened']),
      label: nullableStr.optional(),
      claim: nullableStr.optional(),
      file_path: nullableStr.optional(),
    }),
  ),
  review_submitted: kind(
    'A person submitted a review: approve, request_changes (with the node it reran and the fix round) or comment.',
    z.strictObject({
      review: str,
      outcome: z.enum(['approve', 'request_changes', 'comment']),
      gate: nullableStr,
      node: nullableStr,
      round: num.nullable(),
      open_threads: num,
    }),
  ),
  permission_asked: kind(
    "An agent asked to use a tool its launch neither granted nor denied; it waits for a person's answer.",
    z.strictObject({ ask: str, tool_name: str, session: str.optional() }),
  ),
  permission_decision: kind(
    "A tool call was decided: a permission ask allowed or denied by a person (`by: human`) or expired unanswered (`by: jig`, a denial), or a CLI hook's call the permission gate allowed or denied by policy (`by: jig`, with its `rule`).",
    z.strictObject({
      ask: str.optional(),
      tool_name: str,
      decision: z.enum(['allow', 'deny']),
      expired: bool,
      note: str.optional(),
      rule: z.enum(['deny_tools', 'grant', 'listed', 'not_listed']).optional(),
      task: str.optional(),
    }),
  ),
  ...forgeEventKinds,
  ...intakeEventKinds,
  ...notifyEventKinds,
  ...dependencyEventKinds,
  ...setupEventKinds,
} as const;

export type EventKind = keyof typeof eventCatalogue;
export const eventKinds = Object.keys(eventCatalogue) as EventKind[];
export type EventPayload<K extends EventKind> = z.infer<(typeof eventCatalogue)[K]['payload']>;

export function isEventKind(type: string): type is EventKind {
  return Object.hasOwn(eventCatalogue, type);
}

/**
 * Problems with a payload for its kind, or null when it matches. A kind the catalogue lacks is one:
 * every kind Jig records is declared above.
 */
export function payloadProblem(type: string, payload: unknown): string | null {
  if (!isEventKind(type)) return `${type} is not a kind of event in the catalogue`;
  const r = eventCatalogue[type].payload.safeParse(payload);
  if (r.success) return null;
  return r.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
}
