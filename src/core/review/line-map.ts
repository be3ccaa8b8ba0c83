/*
 * Following a thread's lines as its file changes: the hunks of `git diff -U0 anchor..now -- file`
 * say which old lines were replaced and how far the lines below them moved.
 */

export interface Hunk {
  /** First old line of the hunk and how many it replaced (0: an insertion after `oldStart`). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** The `@@ -a,b +c,d @@` headers of a unified diff. */
export function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const m of patch.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    hunks.push({
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
    });
  }
  return hunks;
}

/**
 * Where lines `start..end` of the old file are in the new one: shifted by every hunk above them,
 * or null when a hunk replaced any of them (the thread is outdated: its lines are not there now).
 */
export function mapRange(hunks: Hunk[], start: number, end: number): { start: number; end: number } | null {
  let shift = 0;
  for (const h of hunks) {
    if (h.oldCount === 0) {
      // Pure insertion after line oldStart: lines after it move down.
      if (h.oldStart < start) shift += h.newCount;
      else if (h.oldStart < end) return null;
      continue;
    }
    const hEnd = h.oldStart + h.oldCount - 1;
    if (hEnd < start) shift += h.newCount - h.oldCount;
    else if (h.oldStart <= end) return null;
  }
  return { start: start + shift, end: end + shift };
}
