import { z } from 'zod';
import { WaitTarget } from './config/task.js';

/*
 * Where an item's walk through its frozen chain is: stored as JSON in `work_items.walk` and parsed
 * with this schema whenever it is read, so the engine works on checked types. Version 1 is the
 * shape every release so far wrote (the field `v` was added with this schema; a walk without it is
 * a version 1 walk). A walk this release cannot read (a newer `v`, a field of the wrong type) is an
 * item the engine stops with the reason, never one it runs on a guess.
 */

export const WALK_VERSION = 1;

/** Where a wall clock started, and how much held time the item had by then. */
export const WallClock = z.object({ at: z.string(), paused_ms: z.number() });
export type WallClock = z.infer<typeof WallClock>;

export const FindingsRoundSchema = z.object({
  round: z.number(),
  cycle: z.number(),
  after_repair: z.boolean(),
  findings: z.array(
    z.object({
      tag: z.string(),
      severity: z.string(),
      message: z.string(),
      line: z.number().optional(),
      task: z.string(),
    }),
  ),
});

/** A rebase that conflicted, while the node's `on_conflict` plan resolves it. */
export const Conflict = z.object({ base: z.string(), base_tip: z.string(), files: z.array(z.string()) });
export type Conflict = z.infer<typeof Conflict>;

/**
 * An external wait on the forge (a merge request's CI, review, approval, merge, post-merge CI): the
 * session standing for it, and when it is polled next. Stored so a restart polls on where it was.
 */
export const ExternalWait = z.object({
  session: z.string(),
  task: z.string(),
  target: WaitTarget,
  repo: z.string(),
  /** The workspace member whose merge request is waited on; absent for the root's (or one repo's). */
  member: z.string().optional(),
  started_at: z.string(),
  next_at: z.string(),
  interval_s: z.number().positive(),
  max_interval_s: z.number().positive(),
  /** What the last poll saw, for the timeout's reason and the board. */
  last: z.object({ state: z.string(), detail: z.string() }).nullable(),
  /** Polls in a row the forge did not answer. */
  errors: z.number().int().min(0),
});
export type ExternalWait = z.infer<typeof ExternalWait>;

/**
 * Which plan of the current exec node runs. `node`: its own steps (a measurement); `base`: a moved
 * base is being rebased onto; `conflict`: the `on_conflict` plan resolves a rebase; `recovery`: the
 * `on_failure` plan named by `recovery`; `decide`: measured, the fix loop's checks come next;
 * `judge`: the loop's judge runs; `judged`: the judge has spoken, limits and stuck checks come next;
 * `repair`: the loop's repair plan runs; `escalation`: the node's escalation task runs.
 */
export const WALK_PHASES = [
  'node',
  'base',
  'conflict',
  'recovery',
  'decide',
  'judge',
  'judged',
  'repair',
  'escalation',
] as const;
export const WalkPhase = z.enum(WALK_PHASES);
export type WalkPhase = z.infer<typeof WalkPhase>;

const fields = {
  v: z.literal(WALK_VERSION),
  /** Index of the current node in the frozen chain; past the last one, the chain is done. */
  node: z.number().int().min(0),
  /** Index of the current step of the plan the phase runs. */
  step: z.number().int().min(0),
  /** Rejections per gate, for the reject-loop cap. */
  rejects: z.record(z.string(), z.number()),
  /** Gates approved in this run (an approved gate passes when the walk reaches it again). */
  approved: z.array(z.string()),
  /** Documents tasks reported (`artifact_ref`), by the kind their task `produces`. */
  artifacts: z.record(z.string(), z.string()).optional(),
  /** Restarts `on_base_changed` made, per node (bounded like reject loops). */
  base_restarts: z.record(z.string(), z.number()).optional(),
  /** Auto-review runs per pending gate (policy `auto_review_attempts` bounds them). */
  reviews: z.record(z.string(), z.number()).optional(),
  /** Escalation turns Jig started by itself for a stuck item (policy `auto_escalate_stuck_cap`). */
  auto_escalations: z.number().optional(),
  /** The item's wall clock, and the time it was held by a person (not counted). */
  clock: WallClock.optional(),
  paused_ms: z.number().optional(),
  paused_at: z.string().nullable().optional(),
  /*
   * Everything below belongs to the current node and is cleared when the walk moves to another
   * (core/chain/walk-state.ts `atNode`).
   */
  /** Entries into the node: 1 on arrival, one more after each escalation that succeeded; absent before arrival. */
  entry: z.number().int().positive().optional(),
  /** When the current step's launches began: sessions started since then belong to it (restarts). */
  step_at: z.string().nullable().optional(),
  /** The recovery plan (`on_failure` path) that ran in this entry, if any. */
  recovery: z.string().nullable().optional(),
  /** Fix cycles counted in this entry (refunded ones are not). */
  cycles: z.number().int().min(0).optional(),
  /** When the fix loop opened in this entry, for its wall clock. */
  loop_started_at: z.string().nullable().optional(),
  /** Every measurement of this entry: its loop-severity findings (the findings history). */
  rounds: z.array(FindingsRoundSchema).optional(),
  /** Sessions of the measurement in progress (the node's own steps). */
  measured: z.array(z.string()).optional(),
  /** The judge's reasoning for the repair about to run. */
  concerns: z.string().nullable().optional(),
  /** The escalation task has run for this node. */
  escalated: z.boolean().optional(),
  /** Why the node is stuck, while its escalation task runs. */
  stuck_reason: z.string().nullable().optional(),
  /** A `read_only` step's snapshot taken before it ran. */
  read_only_before: z.string().nullable().optional(),
  /** The external wait in progress (runtime/engine/waits.ts): polled until it ends, restart-safe. */
  wait: ExternalWait.nullable().optional(),
  /** Every launch was rate limited: the item waits until this time, then tries the step again. */
  parked_until: z.string().nullable().optional(),
  /** Automatic retries after rate limits in this node (policy `rate_limit_retries` bounds them). */
  rate_limit_retries: z.number().int().min(0).optional(),
  /** A person's retry of one task: only that task of the current step runs again. */
  only_task: z.string().nullable().optional(),
  /**
   * The agent session a person's retry goes on in: the next launch of its task resumes its CLI
   * session (a retry with `restart` leaves this out, and the task starts a fresh one).
   */
  resume_session: z.string().nullable().optional(),
  /** Steps and tasks of the current node a person chose to pass (`skip --path`): they do not run. */
  skipped: z.array(z.string()).optional(),
  /** `on_base_changed`: the base was compared at this entry of the node. */
  base_checked: z.boolean().optional(),
  /** A rebase that conflicted, while the `on_conflict` plan resolves it. */
  conflict: Conflict.nullable().optional(),
  /** The step of the node's own steps that failed in the measurement in progress, if any. */
  failed_step: z.number().int().min(0).nullable().optional(),
  /** Wall clocks for `total_time_cap_minutes` of the current node, step and gate. */
  node_clock: WallClock.nullable().optional(),
  step_clock: WallClock.extend({ path: z.string() }).nullable().optional(),
  gate_clock: WallClock.nullable().optional(),
};

const common = z.object(fields).strict();

/**
 * The walk, discriminated by its phase. Three phases carry what they run on: `conflict` its
 * conflict, `recovery` the plan's path, `escalation` why the node is stuck. The rest share the
 * same fields.
 */
export const Walk = z.discriminatedUnion('phase', [
  common.extend({ phase: z.enum(['node', 'base', 'decide', 'judge', 'judged', 'repair']) }),
  common.extend({ phase: z.literal('conflict'), conflict: Conflict }),
  common.extend({ phase: z.literal('recovery'), recovery: z.string() }),
  common.extend({ phase: z.literal('escalation'), stuck_reason: z.string() }),
]);
export type Walk = z.infer<typeof Walk>;

/** A walk as stored by any release: `v` and `phase` were optional before (version 1, phase `node`). */
export const StoredWalk = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const w = raw as Record<string, unknown>;
  return { ...w, v: w.v ?? WALK_VERSION, phase: w.phase ?? 'node' };
}, Walk);
