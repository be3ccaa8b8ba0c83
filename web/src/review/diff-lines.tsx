import { Fragment } from 'react';
import type { DiffFile } from '../../../src/contract/review.js';
import { CommentForm, type Draft } from './comment-form.js';
import { isSelected, keysOf, lineKey, numOf, sideOf, type Placed, type Side } from './file-diff-model.js';
import type { Pending } from './review-data.js';
import { PendingView, ThreadView } from './thread-view.js';
import { newText, splitRows, wordDiff, type DiffLine, type Segment } from './unified.js';
import type { FileDiffState } from './use-file-diff.js';

export interface DiffLinesProps {
  itemId: string;
  file: DiffFile;
  f: FileDiffState;
  split: boolean;
  words: boolean;
  commentable: boolean;
  onAdd: (p: Omit<Pending, 'key'>) => void;
  onRemove: (key: string) => void;
}

function Words({ segs }: { segs: Segment[] }) {
  return segs.map((s, i) => (s.changed ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>));
}

/** A comment placed under a line, or above the file. */
export function PlacedView({
  p,
  itemId,
  onRemove,
}: {
  p: Placed;
  itemId: string;
  onRemove: (key: string) => void;
}) {
  return p.kind === 'thread' ? (
    <ThreadView itemId={itemId} thread={p.thread} />
  ) : (
    <PendingView pending={p.pending} onRemove={() => onRemove(p.pending.key)} />
  );
}

const placedKey = (p: Placed) => (p.kind === 'thread' ? p.thread.id : p.pending.key);

/**
 * The drawn lines of one file, inline or side by side, with the word changes marked; a line number
 * starts a comment (shift-click another for a range), and the comments on a line sit under it.
 */
export function DiffLines({ itemId, file, f, split, words, commentable, onAdd, onRemove }: DiffLinesProps) {
  const { sel } = f;
  const num = (l: DiffLine | null, side: Side) => {
    const n = l ? numOf(l, side) : null;
    if (n === null || !l) return <td className="rv-num" />;
    // A context line is commented on its new side; in the inline view its old number is plain.
    if (!commentable || (l.kind === 'context' && side === 'old' && !split) || sideOf(l) !== side)
      return <td className="rv-num">{l.kind === 'context' || sideOf(l) === side ? n : ''}</td>;
    return (
      <td className="rv-num">
        <button
          type="button"
          className="rv-line-btn"
          aria-label={`Comment on ${side} line ${n}`}
          title="Comment (shift-click another line for a range)"
          onClick={(e) => f.pick(side, n, e.shiftKey)}
        >
          {n}
        </button>
      </td>
    );
  };
  const code = (l: DiffLine | null, side: Side) => {
    if (!l) return <td className="rv-code rv-empty" />;
    const other = words ? f.pairOf.get(l) : undefined;
    const segs =
      other === undefined
        ? null
        : wordDiff(l.kind === 'del' ? l.text : other, l.kind === 'del' ? other : l.text);
    const cls = `rv-code rv-${l.kind}${isSelected(sel, side, numOf(l, side)) ? ' rv-sel' : ''}`;
    return (
      <td className={cls}>
        <span className="rv-sign" aria-hidden>
          {l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}
        </span>
        {segs ? <Words segs={l.kind === 'del' ? segs.old : segs.new} /> : l.text}
      </td>
    );
  };
  const span = split ? 4 : 3;
  const below = (keys: string[]) => {
    const placed = keys.flatMap((k) => f.at.get(k) ?? []);
    const form = sel && keys.includes(lineKey(sel.side, sel.end));
    if (placed.length === 0 && !form) return null;
    return (
      <tr className="rv-below">
        <td colSpan={span}>
          {placed.map((p) => (
            <PlacedView key={placedKey(p)} p={p} itemId={itemId} onRemove={onRemove} />
          ))}
          {form && sel && (
            <CommentForm
              key={`${sel.side}:${sel.start}-${sel.end}`}
              title={`Comment on ${file.path}, ${sel.side} ${sel.start === sel.end ? `line ${sel.start}` : `lines ${sel.start}–${sel.end}`}`}
              submitLabel="Add to your review"
              suggestFrom={sel.side === 'new' ? newText(f.hunks, sel.start, sel.end) : null}
              onCancel={f.clearSelection}
              onSubmit={(d: Draft) => {
                onAdd({
                  file_path: file.path,
                  side: sel.side,
                  start_line: sel.start,
                  end_line: sel.end,
                  ...d,
                });
                f.clearSelection();
              }}
            />
          )}
        </td>
      </tr>
    );
  };

  return (
    <table className={`rv-lines${split ? ' rv-split' : ''}`}>
      {/* Fixed layout takes its widths from here: the first row is a hunk's, one wide cell. */}
      <colgroup>
        {split ? (
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
        {f.drawn.map((h, hi) => (
          <Fragment key={hi}>
            <tr className="rv-hunk">
              <td colSpan={span}>{h.header}</td>
            </tr>
            {split
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
  );
}
