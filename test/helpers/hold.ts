/*
 * A task that holds until the test lets it go: a shell loop that looks for a file. Five looks a
 * second, not twenty: each look forks a `sleep`, and fifty held items looking twenty times a second
 * cost the run more CPU than the work the tests watch (13 000 `sleep` processes in one suite run).
 * Letting go is a file the test writes; the task sees it within a fifth of a second.
 */

/** A POSIX shell loop that returns once `path` exists (`path` as the shell reads it: quote it). */
export const holdUntil = (path: string): string => `while [ ! -e ${path} ]; do sleep 0.2; done`;
