import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReviewThread } from '../../../src/contract/threads.js';
import type { Item } from '../api.js';
import { compareKey } from '../queries.js';
import { FileDiff } from './file-diff.js';
import { FileTree } from './file-tree.js';
import { setViewed, useCompare, type Pending } from './review-data.js';
import { ThreadView } from './thread-view.js';

/**
 * The changes: what to compare (base, an attempt, your last review, now), how to show it (inline
 * or side by side, whitespace ignored, word diff), the file tree and each file's diff.
 */
export function DiffView({
  item,
  threads,
  pending,
  onAdd,
  onRemove,
}: {
  item: Item;
  threads: ReviewThread[];
  pending: Pending[];
  onAdd: (p: Omit<Pending, 'key'>) => void;
  onRemove: (key: string) => void;
}) {
  const client = useQueryClient();
  const [from, setFrom] = useState('base');
  const [to, setTo] = useState('latest');
  const [ignoreWhitespace, setIgnoreWhitespace] = useState(false);
  const [split, setSplit] = useState(false);
  const [words, setWords] = useState(true);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const diff = useCompare(item.id, { from, to, ignoreWhitespace }, true);
  const pages = diff.data?.pages ?? [];
  const first = pages[0];
  // A box just ticked shows ticked while the server takes the mark and the diff is read again.
  const [marks, setMarks] = useState<ReadonlyMap<string, boolean>>(new Map());
  const files = pages
    .flatMap((p) => p.files)
    .map((f) => {
      const m = marks.get(f.path);
      return m === undefined ? f : { ...f, viewed: m };
    });
  const attempts = first?.attempts ?? [];
  // Once every page is here, a thread on a file none of them has would be seen nowhere else.
  const paths = new Set(files.map((f) => f.path));
  const elsewhere =
    diff.hasNextPage || diff.isPending ? [] : threads.filter((t) => !paths.has(t.file_path ?? ''));
  const targets = [
    { value: 'base', label: 'base (where the branch started)' },
    ...attempts.map((a) => ({ value: `attempt:${a.n}`, label: `attempt ${a.n}: ${a.node} run ${a.run}` })),
    { value: 'last_review', label: 'your last review' },
    { value: 'latest', label: 'now (the worktree)' },
  ];
  const mark = async (path: string, viewed: boolean) => {
    setBusy((b) => new Set(b).add(path));
    setMarks((m) => new Map(m).set(path, viewed));
    setError(null);
    try {
      await setViewed(item.id, path, viewed);
      await client.invalidateQueries({ queryKey: compareKey(item.id) });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy((b) => {
        const n = new Set(b);
        n.delete(path);
        return n;
      });
      setMarks((m) => {
        const n = new Map(m);
        n.delete(path);
        return n;
      });
    }
  };
  const picker = (label: string, name: string, value: string, set: (v: string) => void) => (
    <label>
      {label}{' '}
      <select aria-label={name} value={value} onChange={(e) => set(e.target.value)}>
        {targets.map((t) => (
          <option key={t.value} value={t.value}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section className="rv-changes" aria-label="changes">
      <div className="rv-toolbar" role="toolbar" aria-label="diff options">
        {picker('Compare', 'Compare from', from, setFrom)}
        {picker('with', 'Compare with', to, setTo)}
        <span className="rv-seg" role="group" aria-label="layout">
          <button type="button" aria-pressed={!split} onClick={() => setSplit(false)}>
            Inline
          </button>
          <button type="button" aria-pressed={split} onClick={() => setSplit(true)}>
            Side by side
          </button>
        </span>
        <label>
          <input
            type="checkbox"
            checked={ignoreWhitespace}
            onChange={(e) => setIgnoreWhitespace(e.target.checked)}
          />{' '}
          Ignore whitespace
        </label>
        <label>
          <input type="checkbox" checked={words} onChange={(e) => setWords(e.target.checked)} /> Word diff
        </label>
      </div>
      {first && (
        <p className="muted small rv-totals">
          {first.from.target} <code>{first.from.sha.slice(0, 8)}</code> → {first.to.target}{' '}
          <code>{first.to.sha.slice(0, 8)}</code>: {first.totals.files}{' '}
          {first.totals.files === 1 ? 'file' : 'files'},{' '}
          <span className="plus">+{first.totals.additions}</span>{' '}
          <span className="minus">−{first.totals.deletions}</span>
          {to === 'latest'
            ? ' · click a line number to comment; shift-click another for a range'
            : ' · comments go on the worktree now: compare with "now" to add one'}
        </p>
      )}
      {diff.isError && <p role="alert">{diff.error.message}</p>}
      {error && <p role="alert">{error}</p>}
      {diff.isPending ? (
        <p className="muted">Loading the changes…</p>
      ) : files.length === 0 && !diff.isError ? (
        <p className="muted">No file changed between these two.</p>
      ) : (
        <div className="rv-body">
          <FileTree files={files} busy={busy} onViewed={(p, v) => void mark(p, v)} />
          <div className="rv-files">
            {files.map((f) => (
              <FileDiff
                key={f.path}
                itemId={item.id}
                file={f}
                split={split}
                words={words}
                commentable={to === 'latest'}
                threads={threads.filter((t) => t.file_path === f.path)}
                pending={pending.filter((p) => p.file_path === f.path)}
                onAdd={onAdd}
                onRemove={onRemove}
                onViewed={(v) => void mark(f.path, v)}
                viewedBusy={busy.has(f.path)}
              />
            ))}
            {elsewhere.length > 0 && (
              <section className="rv-elsewhere" aria-label="threads on files not in this compare">
                <h2>On files not in this compare</h2>
                {elsewhere.map((t) => (
                  <ThreadView key={t.id} itemId={item.id} thread={t} />
                ))}
              </section>
            )}
            {diff.hasNextPage && (
              <button
                type="button"
                disabled={diff.isFetchingNextPage}
                onClick={() => void diff.fetchNextPage()}
              >
                More files ({first ? first.totals.files - files.length : ''} not shown)
              </button>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
