/*
 * Jig's own text, read first by every agent launch, before the repository's and the task's
 * steering. One module so the steering preview and the harness adapters show and send the same
 * words. The environment variable names are part of the worker contract: the supervisor sets
 * JIG_RESULT_PATH, JIG_DAEMON_PID and JIG_DAEMON_PORT on every agent process.
 */

export const RESULT_PATH_VAR = 'JIG_RESULT_PATH';
export const DAEMON_PID_VAR = 'JIG_DAEMON_PID';
export const DAEMON_PORT_VAR = 'JIG_DAEMON_PORT';

/** The built-in contract every agent task reads at launch. */
export const CONTRACT_TEXT = `You are running as one task of a Jig work item, in a git worktree Jig made for it.

When you finish, write your result as one JSON object to the file named by $${RESULT_PATH_VAR}. A run that ends without that file counts as failed. Its fields:
- "status": "done"; "done_with_concerns" with "concerns" saying what is left; "failed"; or "needs_context" with "question", which stops the work item and asks a person.
- "findings": what you found wrong, as a list of {"severity": "critical" | "important" | "minor", "message", "file", "line"} ("file" and "line" when they apply).
- "verdict": only when you judge a fix loop or review a gate, as your instructions say.
- "session_summary_ref": the repository-relative path of a summary you wrote, if you wrote one.
Write the file once, at the end. Do not end your turn with background jobs still running.

Never signal (kill, pkill, killall, or any other way) a process you did not start yourself. The Jig server running you is process $${DAEMON_PID_VAR} and listens on port $${DAEMON_PORT_VAR}: before you stop anything, or anything holding a port, check that it is neither that process nor that port. When a port you need is taken, use another port instead of stopping what holds it.`;
