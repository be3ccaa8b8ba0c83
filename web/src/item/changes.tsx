import { useQuery } from '@tanstack/react-query';
import type { ReviewThread } from '../../../src/contract/threads.js';
import type { Item } from '../api.js';
import { itemChangesQuery, openThreadsQuery } from '../queries.js';

/**
 * The item's changes against its base as counts per file (no patches), or null before it has a
 * worktree. Keyed under the item, so the live stream's refresh of the item refreshes it too.
 */
export function useChanges(item: Item) {
  // Asked only once the worktree is cut: before that the route refuses, and the console shows it.
  return useQuery({ ...itemChangesQuery(item), enabled: item.has_worktree });
}

/** "+12 −3 in 4 files": the header's change size. */
export function ChangeSize({ item }: { item: Item }) {
  const changes = useChanges(item);
  const t = changes.data?.totals;
  if (!t) return null;
  if (t.files === 0) return <span className="change-size muted">no changes yet</span>;
  return (
    <span className="change-size" title={`changes against ${changes.data?.from.sha.slice(0, 10)}`}>
      <span className="plus">+{t.additions}</span> <span className="minus">−{t.deletions}</span> in {t.files}{' '}
      {t.files === 1 ? 'file' : 'files'}
    </span>
  );
}

/** The files a gate's decision covers, with their counts (binary ones named as such). */
export function ChangedFiles({ item }: { item: Item }) {
  const changes = useChanges(item);
  const d = changes.data;
  if (!d) return null;
  return (
    <details className="changed-files" open={d.files.length <= 12}>
      <summary>
        Changed files ({d.totals.files}){d.next_offset !== null ? ' — the first 500 listed' : ''}
      </summary>
      {d.files.length === 0 ? (
        <p className="muted">The agents changed no file.</p>
      ) : (
        <ul aria-label="changed files">
          {d.files.map((f) => (
            <li key={f.path}>
              <code>{f.old_path ? `${f.old_path} → ${f.path}` : f.path}</code>{' '}
              {f.binary ? (
                <span className="muted small">binary</span>
              ) : (
                <span className="small">
                  <span className="plus">+{f.additions}</span> <span className="minus">−{f.deletions}</span>
                </span>
              )}{' '}
              <span className="muted small">{f.status}</span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** The open review threads a gate's decision must weigh; a must-fix one blocks Approve. */
export function useOpenThreads(item: Item) {
  return useQuery(openThreadsQuery(item));
}

function place(t: ReviewThread): string {
  if (!t.file_path) return 'general';
  if (t.start_line === null) return t.file_path;
  const at = t.lines_now ?? { start: t.start_line, end: t.end_line ?? t.start_line };
  return `${t.file_path}:${at.start === at.end ? at.start : `${at.start}-${at.end}`}${t.outdated ? ' (outdated)' : ''}`;
}

export function OpenThreads({ threads }: { threads: ReviewThread[] }) {
  if (threads.length === 0) return null;
  return (
    <section className="open-threads" aria-label="open review threads">
      <h3>Open review threads ({threads.length})</h3>
      <ul>
        {threads.map((t) => (
          <li key={t.id}>
            {t.label && <span className={`label label-${t.label}`}>{t.label}</span>} <code>{place(t)}</code>{' '}
            {t.comments[0]?.body.split('\n')[0]}
            {t.claim && <span className="muted small"> · agent: {t.claim.replace('_', ' ')}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
