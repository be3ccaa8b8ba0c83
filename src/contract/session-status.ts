/**
 * How a task session stands or ended, as stored (`worker_sessions.status`) and as the API shows it.
 * A value this release did not write is read as `unknown`.
 */
export const sessionStatuses = [
  'running',
  'done',
  'done_with_concerns',
  'failed',
  'needs_context',
  'config_error',
  'capped_out',
  'paused',
  /** Ended because a person cancelled or abandoned its item: it will not be resumed, unlike `paused`. */
  'cancelled',
  'unknown',
  /** An agent whose provider limited it (429, usage limit); the launch falls back or parks. */
  'rate_limited',
  /** The CLI could not work at all (not logged in, bad key, executable missing): not a code failure. */
  'infra_error',
  /** Ended by the server because a token or dollar cap was crossed while it ran, or at its end. */
  'budget_exceeded',
  /** Killed by its container runtime out of memory (the sandbox's `resources.memory`). */
  'oom_killed',
  /** An external wait on the forge, polled by the server: no process (runtime/engine/waits.ts). */
  'waiting',
] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

const known = new Set<string>(sessionStatuses);

function isSessionStatus(s: string): s is SessionStatus {
  return known.has(s);
}

/** A stored status read back: one this release knows, else `unknown`. */
export function sessionStatus(s: string): SessionStatus {
  return isSessionStatus(s) ? s : 'unknown';
}
