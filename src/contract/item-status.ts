/**
 * Stored work item statuses. `archived` is not a status but a flag on an ended item, so an archived
 * item keeps its final status (restore puts it back under Done as it was).
 * - paused: filed or stopped by a person; nothing runs.
 * - queued: asked to start, waiting for a slot under `max_concurrent`.
 * - running: the engine walks its chain.
 * - stopped: the walk stopped; `stop_kind` says why: a person decides (a gate, a question, a cap, a
 *   failure), or, for `rate_limit`, the item waits for the earliest reset and goes on by itself.
 * - waiting: an external wait (a merge request's CI, review, approval or merge) is polled on the
 *   forge; the item holds no slot and goes on by itself when the wait ends.
 * - completed, cancelled, abandoned: ended.
 */
export const itemStatuses = [
  'paused',
  'queued',
  'running',
  'stopped',
  'waiting',
  'completed',
  'cancelled',
  'abandoned',
] as const;
export type ItemStatus = (typeof itemStatuses)[number];

export const stopKinds = [
  'gate',
  'question',
  'cap',
  'budget',
  'failed',
  'conflict',
  'mr_closed',
  'config',
  'infra',
  'stuck',
  'wait',
  'rate_limit',
  /** A task's container was killed out of memory (docs/sandbox.md): raise `resources.memory`. */
  'sandbox_oom_killed',
] as const;
export type StopKind = (typeof stopKinds)[number];
