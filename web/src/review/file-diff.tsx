import { Fragment, useMemo, useState, type ReactNode } from 'react';
import type { DiffFile } from '../../../src/contract/review.js';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { CommentForm, type Draft } from './comment-form.js';
import { threadLine, type Pending } from './review-data.js';
import { PendingView, ThreadView } from './thread-view.js';
import {
  firstLines,
  lineCount,
  newText,
  pairs,
  parsePatch,
  splitRows,
  wordDiff,
  type DiffLine,
  type Segment,
} from './unified.js';

/** Lines drawn at first, and then per "Show more": a long file never reaches the page whole. */
const CHUNK = 400;

type Side = 'old' | 'new';
interface Selection {
  side: Side;
  start: number;
  end: number;
}

export interface FileDiffProps {
  itemId: string;
  file: DiffFile;
  split: boolean;
  words: boolean;
  /** Comments go on lines of the worktree now: off when the compare ends elsewhere. */
  commentable: boolean;
  threads: ReviewThread[];
  pending: Pending[];
  onAdd: (p: Omit<Pending, 'key'>) => void;
  onRemove: (key: string) => void;
  onViewed: (viewed: boolean) => void;
  viewedBusy: boolean;
}

const sideOf = (l: DiffLine): Side => (l.kind === 'del' ? 'old' : 'new');
const numOf = (l: DiffLine, side: Side): number | null => (side === 'old' ? l.old : l.new);

function Words({ segs }: { segs: Segment[] }) {
  return segs.map((s, i) => (s.changed ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>));
}

/** One file of the diff: its header with the Viewed box, its lines, and the comments on them. */
export function FileDiff(p: FileDiffProps) {
  const { file } = p;
  const hunks = useMemo(() => (file.patch ? parsePatch(file.patch) : []), [file.patch]);
  const pairOf = useMemo(() => pairs(hunks.flatMap((h) => h.lines)), [hunks]);
  const total = lineCount(hunks);
  const [limit, setLimit] = useState(CHUNK);
  const drawn = useMemo(() => firstLines(hunks, limit), [hunks, limit]);
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? !file.viewed;
  const [sel, setSel] = useState<Selection | null>(null);

  // Threads and pending comments under the line they end on; the rest above the file's lines.
  const shownLines = useMemo(() => {
    const s = new Set<string>();
    for (const h of drawn)
      for (const l of h.lines) {
        if (l.old !== null) s.add(`old:${l.old}`);
        if (l.new !== null) s.add(`new:${l.new}`);
      }
    return s;
  }, [drawn]);
  const at = new Map<string, ReactNode[]>();
  const loose: ReactNode[] = [];
  const put = (key: string | null, node: ReactNode) => {
    if (key && p.commentable && shownLines.has(key)) at.set(key, [...(at.get(key) ?? []), node]);
    else loose.push(node);
  };
  for (const t of p.threads) {
    const line = threadLine(t);
    put(
      line === null ? null : `${t.side ?? 'new'}:${line}`,
      <ThreadView key={t.id} itemId={p.itemId} thread={t} />,
    );
  }
  for (const c of p.pending)
    put(
      `${c.side}:${c.end_line}`,
      <PendingView key={c.key} pending={c} onRemove={() => p.onRemove(c.key)} />,
    );

  const pick = (side: Side, n: number, extend: boolean) =>
    setSel((s) =>
      extend && s && s.side === side
        ? { side, start: Math.min(s.start, n), end: Math.max(s.start, n) }
        : { side, start: n, end: n },
    );
  const selected = (side: Side, n: number | null) =>
    sel !== null && n !== null && sel.side === side && n >= sel.start && n <= sel.end;

  const num = (l: DiffLine | null, side: Side) => {
    const n = l ? numOf(l, side) : null;
    if (n === null || !l) return <td className="rv-num" />;
    // A context line is commented on its new side; in the inline view its old number is plain.
    if (!p.commentable || (l.kind === 'context' && side === 'old' && !p.split) || sideOf(l) !== side)
      return <td className="rv-num">{l.kind === 'context' || sideOf(l) === side ? n : ''}</td>;
    return (
      <td className="rv-num">
        <button
          type="button"
          className="rv-line-btn"
          aria-label={`Comment on ${side} line ${n}`}
          title="Comment (shift-click another line for a range)"
          onClick={(e) => pick(side, n, e.shiftKey)}
        >
          {n}
        </button>
      </td>
    );
  };
  const code = (l: DiffLine | null, side: Side) => {
    if (!l) return <td className="rv-code rv-empty" />;
    const other = p.words ? pairOf.get(l) : undefined;
    const segs =
      other === undefined
        ? null
        : wordDiff(l.kind === 'del' ? l.text : other, l.kind === 'del' ? other : l.text);
    const cls = `rv-code rv-${l.kind}${selected(side, numOf(l, side)) ? ' rv-sel' : ''}`;
    return (
      <td className={cls}>
        <span className="rv-sign" aria-hidden>
          {l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}
        </span>
        {segs ? <Words segs={l.kind === 'del' ? segs.old : segs.new} /> : l.text}
      </td>
    );
  };
  const span = p.split ? 4 : 3;
  const below = (keys: string[]) => {
    const nodes = keys.flatMap((k) => at.get(k) ?? []);
    const form = sel && keys.includes(`${sel.side}:${sel.end}`);
    if (nodes.length === 0 && !form) return null;
    return (
      <tr className="rv-below">
        <td colSpan={span}>
          {nodes}
          {form && sel && (
            <CommentForm
              key={`${sel.side}:${sel.start}-${sel.end}`}
              title={`Comment on ${file.path}, ${sel.side} ${sel.start === sel.end ? `line ${sel.start}` : `lines ${sel.start}–${sel.end}`}`}
              submitLabel="Add to your review"
              suggestFrom={sel.side === 'new' ? newText(hunks, sel.start, sel.end) : null}
              onCancel={() => setSel(null)}
              onSubmit={(d: Draft) => {
                p.onAdd({
                  file_path: file.path,
                  side: sel.side,
                  start_line: sel.start,
                  end_line: sel.end,
                  ...d,
                });
                setSel(null);
              }}
            />
          )}
        </td>
      </tr>
    );
  };
  const keysOf = (ls: (DiffLine | null)[]) =>
    ls.flatMap((l) =>
      l ? [l.old !== null ? `old:${l.old}` : '', l.new !== null ? `new:${l.new}` : ''] : [],
    );

  return (
    <section className="rv-file" aria-label={`diff of ${file.path}`} id={`file-${file.path}`}>
      <header className="rv-file-head">
        <button
          type="button"
          className="rv-fold"
          aria-expanded={shown}
          aria-label={`${shown ? 'Fold' : 'Unfold'} ${file.path}`}
          onClick={() => setOpen(!shown)}
        >
          {shown ? '▾' : '▸'}
        </button>
        <code className="rv-path">{file.old_path ? `${file.old_path} → ${file.path}` : file.path}</code>
        <span className="muted small">{file.status}</span>
        {file.binary ? (
          <span className="muted small">binary</span>
        ) : (
          <span className="small">
            <span className="plus">+{file.additions ?? 0}</span>{' '}
            <span className="minus">−{file.deletions ?? 0}</span>
          </span>
        )}
        <label className="rv-viewed">
          <input
            type="checkbox"
            checked={file.viewed}
            disabled={p.viewedBusy}
            onChange={(e) => {
              p.onViewed(e.target.checked);
              // Marking a file viewed folds it, as one does with a file done with.
              setOpen(!e.target.checked);
            }}
          />{' '}
          Viewed
        </label>
      </header>
      {loose.length > 0 && <div className="rv-loose">{loose}</div>}
      {shown &&
        (file.binary ? (
          <p className="muted rv-note">A binary file: not shown.</p>
        ) : file.truncated ? (
          <p className="muted rv-note">
            Too large to show here ({(file.additions ?? 0) + (file.deletions ?? 0)} changed lines).
          </p>
        ) : hunks.length === 0 ? (
          <p className="muted rv-note">
            No lines changed{file.status === 'renamed' ? ' (renamed only)' : ''}.
          </p>
        ) : (
          <table className={`rv-lines${p.split ? ' rv-split' : ''}`}>
            {/* Fixed layout takes its widths from here: the first row is a hunk's, one wide cell. */}
            <colgroup>
              {p.split ? (
                <>
                  <col className="rv-num-col" />
                  <col />
                  <col className="rv-num-col" />
                  <col />
                </>
              ) : (
                <>
                  <col className="rv-num-col" />
                  <col className="rv-num-col" />
                  <col />
                </>
              )}
            </colgroup>
            <tbody>
              {drawn.map((h, hi) => (
                <Fragment key={hi}>
                  <tr className="rv-hunk">
                    <td colSpan={span}>{h.header}</td>
                  </tr>
                  {p.split
                    ? splitRows(h.lines).map((r, ri) => (
                        <Fragment key={ri}>
                          <tr>
                            {num(r.left, 'old')}
                            {code(r.left, 'old')}
                            {num(r.right, 'new')}
                            {code(r.right, 'new')}
                          </tr>
                          {below(keysOf(r.left === r.right ? [r.left] : [r.left, r.right]))}
                        </Fragment>
                      ))
                    : h.lines.map((l, li) => (
                        <Fragment key={li}>
                          <tr>
                            {num(l, 'old')}
                            {num(l, 'new')}
                            {code(l, sideOf(l))}
                          </tr>
                          {below(keysOf([l]))}
                        </Fragment>
                      ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        ))}
      {shown && total > limit && (
        <div className="rv-more">
          <button type="button" onClick={() => setLimit((n) => n + CHUNK * 5)}>
            Show {Math.min(CHUNK * 5, total - limit)} more lines
          </button>{' '}
          <span className="muted small">
            {total - limit} of {total} not drawn yet
          </span>
        </div>
      )}
    </section>
  );
}
