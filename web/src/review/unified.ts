import { diffWordsWithSpace } from 'diff';

/*
 * One file's unified diff (the `patch` the diff and compare routes give) as lines with their old
 * and new numbers, and the two ways the page shows them: inline (one column) and side by side
 * (deleted lines left, added right, paired in order within a run of changes). Pure, so tested
 * beside it.
 */

export type LineKind = 'context' | 'add' | 'del';

export interface DiffLine {
  kind: LineKind;
  text: string;
  /** Null for an added line. */
  old: number | null;
  /** Null for a deleted line. */
  new: number | null;
}

export interface Hunk {
  header: string;
  lines: DiffLine[];
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** The hunks of a file's patch; the `diff --git`, index and ---/+++ lines before them are skipped. */
export function parsePatch(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let oldN = 0;
  let newN = 0;
  for (const raw of patch.split('\n')) {
    const m = HUNK.exec(raw);
    if (m) {
      cur = { header: raw, lines: [] };
      hunks.push(cur);
      oldN = Number(m[1]);
      newN = Number(m[2]);
      continue;
    }
    if (!cur) continue;
    const sign = raw[0];
    const text = raw.slice(1);
    if (sign === ' ') cur.lines.push({ kind: 'context', text, old: oldN++, new: newN++ });
    else if (sign === '-') cur.lines.push({ kind: 'del', text, old: oldN++, new: null });
    else if (sign === '+') cur.lines.push({ kind: 'add', text, old: null, new: newN++ });
    // "\ No newline at end of file" and the patch's final empty line carry no line.
  }
  return hunks;
}

/** A row of the side-by-side view: either side may be empty. */
export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/** Context lines on both sides; a run of deletions then additions paired line by line. */
export function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++)
      rows.push({ left: dels[k] ?? null, right: adds[k] ?? null });
    dels = [];
    adds = [];
  };
  for (const line of lines) {
    if (line.kind === 'context') {
      flush();
      rows.push({ left: line, right: line });
    } else if (line.kind === 'del') {
      // A deletion after additions starts a new run.
      if (adds.length > 0) flush();
      dels.push(line);
    } else adds.push(line);
  }
  flush();
  return rows;
}

/** A part of a changed line for the word diff: `changed` is what differs from its pair. */
export interface Segment {
  text: string;
  changed: boolean;
}

/**
 * The word diff of a deleted line against the added line it pairs with: each side's segments,
 * the words only it has marked. A line with no pair is wholly changed.
 */
export function wordDiff(oldText: string, newText: string): { old: Segment[]; new: Segment[] } {
  const out = { old: [] as Segment[], new: [] as Segment[] };
  for (const part of diffWordsWithSpace(oldText, newText)) {
    if (!part.added) out.old.push({ text: part.value, changed: part.removed === true });
    if (!part.removed) out.new.push({ text: part.value, changed: part.added === true });
  }
  return out;
}

/**
 * For each changed line of a hunk, its pair's text (the word diff's other side): the k-th deletion
 * of a run pairs with the k-th addition that follows it.
 */
export function pairs(lines: DiffLine[]): Map<DiffLine, string> {
  const out = new Map<DiffLine, string>();
  for (const row of splitRows(lines)) {
    if (row.left && row.right && row.left !== row.right) {
      out.set(row.left, row.right.text);
      out.set(row.right, row.left.text);
    }
  }
  return out;
}

/** The text of new-side lines start..end: what a suggestion replaces, its starting point. */
export function newText(hunks: Hunk[], start: number, end: number): string {
  const lines: string[] = [];
  for (const h of hunks)
    for (const l of h.lines) if (l.new !== null && l.new >= start && l.new <= end) lines.push(l.text);
  return lines.join('\n');
}

/**
 * The hunks cut after `n` lines in all: a long file is drawn a part at a time, so ten thousand
 * lines never reach the page at once.
 */
export function firstLines(hunks: Hunk[], n: number): Hunk[] {
  const out: Hunk[] = [];
  let left = n;
  for (const h of hunks) {
    if (left <= 0) break;
    out.push(h.lines.length <= left ? h : { header: h.header, lines: h.lines.slice(0, left) });
    left -= h.lines.length;
  }
  return out;
}

/** How many lines a file's hunks show. */
export const lineCount = (hunks: Hunk[]): number => hunks.reduce((n, h) => n + h.lines.length, 0);
