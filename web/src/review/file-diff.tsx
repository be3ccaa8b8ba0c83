import type { DiffFile } from '../../../src/contract/review.js';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { DiffLines, PlacedView } from './diff-lines.js';
import type { Pending } from './review-data.js';
import { CHUNK, useFileDiff, type FileDiffState } from './use-file-diff.js';

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

/** The file's header: fold, path, status, counts and the Viewed box (which folds it). */
function FileHead({
  file,
  f,
  viewedBusy,
  onViewed,
}: {
  file: DiffFile;
  f: FileDiffState;
  viewedBusy: boolean;
  onViewed: (viewed: boolean) => void;
}) {
  return (
    <header className="rv-file-head">
      <button
        type="button"
        className="rv-fold"
        aria-expanded={f.shown}
        aria-label={`${f.shown ? 'Fold' : 'Unfold'} ${file.path}`}
        onClick={() => f.setOpen(!f.shown)}
      >
        {f.shown ? '▾' : '▸'}
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
          disabled={viewedBusy}
          onChange={(e) => {
            onViewed(e.target.checked);
            // Marking a file viewed folds it, as one does with a file done with.
            f.setOpen(!e.target.checked);
          }}
        />{' '}
        Viewed
      </label>
    </header>
  );
}

/** Why a file shows no lines, when it shows none: binary, too large, or no line changed. */
function noLines(file: DiffFile, f: FileDiffState): string | null {
  if (file.binary) return 'A binary file: not shown.';
  if (file.truncated)
    return `Too large to show here (${(file.additions ?? 0) + (file.deletions ?? 0)} changed lines).`;
  if (f.hunks.length === 0) return `No lines changed${file.status === 'renamed' ? ' (renamed only)' : ''}.`;
  return null;
}

/** One file of the diff: its header with the Viewed box, its lines, and the comments on them. */
export function FileDiff(p: FileDiffProps) {
  const { file } = p;
  const f = useFileDiff(file, p.threads, p.pending, p.commentable);
  const note = noLines(file, f);
  return (
    <section className="rv-file" aria-label={`diff of ${file.path}`} id={`file-${file.path}`}>
      <FileHead file={file} f={f} viewedBusy={p.viewedBusy} onViewed={p.onViewed} />
      {f.loose.length > 0 && (
        <div className="rv-loose">
          {f.loose.map((c) => (
            <PlacedView
              key={c.kind === 'thread' ? c.thread.id : c.pending.key}
              p={c}
              itemId={p.itemId}
              onRemove={p.onRemove}
            />
          ))}
        </div>
      )}
      {f.shown &&
        (note !== null ? (
          <p className="muted rv-note">{note}</p>
        ) : (
          <DiffLines
            itemId={p.itemId}
            file={file}
            f={f}
            split={p.split}
            words={p.words}
            commentable={p.commentable}
            onAdd={p.onAdd}
            onRemove={p.onRemove}
          />
        ))}
      {f.shown && f.total > f.limit && (
        <div className="rv-more">
          <button type="button" onClick={f.showMore}>
            Show {Math.min(CHUNK * 5, f.total - f.limit)} more lines
          </button>{' '}
          <span className="muted small">
            {f.total - f.limit} of {f.total} not drawn yet
          </span>
        </div>
      )}
    </section>
  );
}
