/**
 * Stored work item statuses. `archived` is not a status but a flag on an ended item, so an archived
 * item keeps its final status (restore puts it back under Done as it was).
 * - paused: filed or stopped by a person; nothing runs.
 * - queued: asked to start, waiting for a slot under `max_concurrent`.
 * - running: the engine walks its chain.
 * - waiting: an external wait (CI, approval) holds it; no slot held.
 * - rate_limited: every harness candidate is limited; retried at the earliest reset.
 * - stopped: needs a person (a gate, a question, a cap, a failure); `stop_kind` says which.
 * - completed, cancelled, abandoned: ended.
 */
export const itemStatuses = [
  'paused',
  'queued',
  'running',
  'waiting',
  'rate_limited',
  'stopped',
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
] as const;
export type StopKind = (typeof stopKinds)[number];
