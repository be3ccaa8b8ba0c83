import { useMemo, useState } from 'react';
import type { DiffFile } from '../../../src/contract/review.js';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { pick, placeComments, shownKeys, type Selection, type Side } from './file-diff-model.js';
import type { Pending } from './review-data.js';
import { firstLines, lineCount, pairs, parsePatch } from './unified.js';

/** Lines drawn at first, and then per "Show more": a long file never reaches the page whole. */
export const CHUNK = 400;

/**
 * One file's diff, without drawing it: its hunks, how many of their lines are drawn, whether it is
 * folded (a file marked viewed starts folded), the lines selected for a comment, and where each
 * comment sits.
 */
export function useFileDiff(
  file: DiffFile,
  threads: readonly ReviewThread[],
  pending: readonly Pending[],
  commentable: boolean,
) {
  const hunks = useMemo(() => (file.patch ? parsePatch(file.patch) : []), [file.patch]);
  const pairOf = useMemo(() => pairs(hunks.flatMap((h) => h.lines)), [hunks]);
  const total = lineCount(hunks);
  const [limit, setLimit] = useState(CHUNK);
  const drawn = useMemo(() => firstLines(hunks, limit), [hunks, limit]);
  const [open, setOpen] = useState<boolean | null>(null);
  const [sel, setSel] = useState<Selection | null>(null);
  const shown = useMemo(() => shownKeys(drawn), [drawn]);
  const placed = placeComments(threads, pending, shown, commentable);
  return {
    hunks,
    pairOf,
    drawn,
    total,
    limit,
    showMore: () => setLimit((n) => n + CHUNK * 5),
    /** Whether the file's lines show: as the person left it, else folded once viewed. */
    shown: open ?? !file.viewed,
    setOpen,
    sel,
    pick: (side: Side, n: number, extend: boolean) => setSel((s) => pick(s, side, n, extend)),
    clearSelection: () => setSel(null),
    ...placed,
  };
}

export type FileDiffState = ReturnType<typeof useFileDiff>;
