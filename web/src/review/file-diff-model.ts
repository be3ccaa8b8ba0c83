import type { ReviewThread } from '../../../src/contract/threads.js';
import { threadLine, type Pending } from './review-data.js';
import type { DiffLine, Hunk } from './unified.js';

/*
 * What one file's diff decides before drawing anything: which side a line is commented on, the
 * lines selected for a comment, and where each thread and pending comment sits (under the line it
 * ends on, or above the file when that line is not drawn). Pure, so tested beside it.
 */

export type Side = 'old' | 'new';

export interface Selection {
  side: Side;
  start: number;
  end: number;
}

export const sideOf = (l: DiffLine): Side => (l.kind === 'del' ? 'old' : 'new');
export const numOf = (l: DiffLine, side: Side): number | null => (side === 'old' ? l.old : l.new);

/** A line's key: its side and number (`new:12`). */
export const lineKey = (side: Side, n: number) => `${side}:${n}`;

/** The keys of a run of lines, each line under both of its numbers. */
export const keysOf = (lines: readonly (DiffLine | null)[]): string[] =>
  lines.flatMap((l) =>
    l ? [l.old !== null ? lineKey('old', l.old) : '', l.new !== null ? lineKey('new', l.new) : ''] : [],
  );

/** Every line key the drawn hunks show. */
export function shownKeys(drawn: readonly Hunk[]): Set<string> {
  const s = new Set<string>();
  for (const h of drawn) for (const k of keysOf(h.lines)) if (k) s.add(k);
  return s;
}

/** A click on line `n` of `side`: a new selection, or (shift) the range from the selection's start. */
export function pick(s: Selection | null, side: Side, n: number, extend: boolean): Selection {
  return extend && s && s.side === side
    ? { side, start: Math.min(s.start, n), end: Math.max(s.start, n) }
    : { side, start: n, end: n };
}

export const isSelected = (sel: Selection | null, side: Side, n: number | null): boolean =>
  sel !== null && n !== null && sel.side === side && n >= sel.start && n <= sel.end;

/** A comment of the file: a posted thread, or one written here and not posted yet. */
export type Placed = { kind: 'thread'; thread: ReviewThread } | { kind: 'pending'; pending: Pending };

/**
 * Threads and pending comments under the line they end on, when that line is drawn and comments
 * go on lines here; the rest above the file's lines.
 */
export function placeComments(
  threads: readonly ReviewThread[],
  pending: readonly Pending[],
  shown: ReadonlySet<string>,
  commentable: boolean,
): { at: Map<string, Placed[]>; loose: Placed[] } {
  const at = new Map<string, Placed[]>();
  const loose: Placed[] = [];
  const put = (key: string | null, p: Placed) => {
    if (key && commentable && shown.has(key)) at.set(key, [...(at.get(key) ?? []), p]);
    else loose.push(p);
  };
  for (const t of threads) {
    const line = threadLine(t);
    put(line === null ? null : lineKey(t.side ?? 'new', line), { kind: 'thread', thread: t });
  }
  for (const c of pending) put(lineKey(c.side, c.end_line), { kind: 'pending', pending: c });
  return { at, loose };
}
