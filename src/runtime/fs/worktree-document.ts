import { inspectInside, readInside, type InsideRules } from './safe-read.js';

/** The largest document a gate decides on or a task reports (docs/security.md). */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

// An agent writes the worktree: a link to /etc/passwd, a FIFO or a hard link there is no document.
const RULES: InsideRules = {
  maxBytes: DOCUMENT_MAX_BYTES,
  refuseHardLinks: true,
  refuseGitInternals: true,
  rootName: 'worktree',
};

/** Whether `rel` is a document Jig would read from the worktree, without reading it. */
export function documentReadable(worktree: string, rel: string): boolean {
  return inspectInside(worktree, rel, RULES).ok;
}

/**
 * Whether `rel` names something in the worktree, readable or not (too large, a FIFO, a link out):
 * a task's document is recorded then, so it is listed with its problem and a gate that shows it
 * is refused rather than passed as if there were none.
 */
export function documentPresent(worktree: string, rel: string): boolean {
  const seen = inspectInside(worktree, rel, RULES);
  return seen.ok || (seen.reason !== 'missing' && seen.reason !== 'bad_path');
}

/**
 * Why a document that is there cannot be read by these rules ("is larger than 10485760 bytes", "is
 * a FIFO, not a regular file"), without reading it; null when it can, or when it is not there.
 */
export function documentProblem(worktree: string, rel: string): string | null {
  const seen = inspectInside(worktree, rel, RULES);
  return seen.ok || seen.reason === 'missing' ? null : seen.detail;
}

/** A document from the worktree, by the rules of safe-read.ts. */
export function readDocument(worktree: string, rel: string) {
  return readInside(worktree, rel, RULES);
}
