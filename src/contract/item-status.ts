/**
 * Stored work item statuses. `archived` is not a status but a flag on an ended item, so an archived
 * item keeps its final status (restore puts it back under Done as it was).
 * - paused: filed or stopped by a person; nothing runs.
 * - blocked: asked to start while an item it comes after (`after`) has not completed; it holds no
 *   slot and no worktree, and starts by itself when the last of them completes.
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
  'blocked',
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
  /**
   * A blocked item's dependency ended without completing (cancelled or abandoned): it will never
   * start by itself; a person drops the dependency (`unblock`) or cancels the item.
   */
  'dependency',
] as const;
export type StopKind = (typeof stopKinds)[number];
