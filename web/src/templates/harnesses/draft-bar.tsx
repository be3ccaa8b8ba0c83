import { useState } from 'react';
import { StalePanel } from '../../settings/stale.js';
import { plural } from '../../words.js';
import type { useDraft } from './draft.js';

/** What a publish reaches, in words; each area's `impact` has its own shape. */
function impactLine(impact: unknown): string | null {
  if (typeof impact !== 'object' || impact === null) return null;
  if (
    'tasks' in impact &&
    typeof impact.tasks === 'number' &&
    'chains' in impact &&
    Array.isArray(impact.chains)
  )
    return impact.tasks === 0
      ? 'No task changes which harness it may run on.'
      : `${plural(impact.tasks, 'agent task')} in ${impact.chains.join(', ')} change which harness they may run on.`;
  if ('running' in impact && typeof impact.running === 'object' && impact.running !== null) {
    const rows = Object.entries(impact.running);
    if (rows.length === 0) return null;
    return rows.map(([repo, n]) => `${String(n)} items not ended in ${repo}`).join('; ');
  }
  return null;
}

/**
 * The draft's state, Undo, Discard, and Review & publish: its changes, what they reach, its
 * problems; a stale publish shows the server's diff with Rebase or Discard.
 */
export function DraftBar({ d, what }: { d: ReturnType<typeof useDraft>; what: string }) {
  const [open, setOpen] = useState(false);
  const data = d.draft.data;
  const busy = d.ops.isPending || d.undo.isPending || d.publish.isPending || d.discard.isPending;
  return (
    <>
      {d.stale && (
        <StalePanel
          stale={d.stale}
          busy={busy || d.rebase.isPending}
          onRebase={() => d.rebase.mutate()}
          onDiscard={() => d.discard.mutate(undefined, { onSuccess: () => setOpen(false) })}
        />
      )}
      {d.refusal && (
        <div role="alert" className="problems">
          {d.refusal.message}
        </div>
      )}
      {d.published && (
        <p role="status" className="tpl-ok">
          Published {d.published.published.join(', ')}.{' '}
          <button type="button" className="link" onClick={d.clearPublished}>
            Dismiss
          </button>
        </p>
      )}
      {data?.draft && (
        <div className="draft-bar" role="region" aria-label="Draft">
          <span className="grow">
            <strong>Unpublished draft</strong> of {what}: {plural(data.result.changes.length, 'change')}
            {data.result.problems.length > 0 ? `, ${plural(data.result.problems.length, 'problem')}` : ''}
          </span>
          <button type="button" className="primary" onClick={() => setOpen(!open)} aria-expanded={open}>
            Review & publish
          </button>
          <button type="button" onClick={() => d.undo.mutate()} disabled={busy}>
            Undo
          </button>
          <button
            type="button"
            onClick={() => d.discard.mutate(undefined, { onSuccess: () => setOpen(false) })}
            disabled={busy}
          >
            Discard draft
          </button>
        </div>
      )}
      {data?.draft && open && (
        <section className="tpl-card" aria-labelledby="review-title">
          <h2 id="review-title">Review & publish</h2>
          <ul aria-label="Changes">
            {data.result.changes.map((c, i) => (
              <li key={i}>
                <code>{c.path}</code> {c.summary}
                {c.file && c.file !== c.path ? <span className="muted small"> ({c.file})</span> : null}
              </li>
            ))}
          </ul>
          {impactLine(data.result.impact) && <p>{impactLine(data.result.impact)}</p>}
          {data.result.yaml_error && (
            <p className="problems">
              <code>
                {data.result.yaml_error.file}:{data.result.yaml_error.line ?? '?'}
              </code>{' '}
              {data.result.yaml_error.message}
            </p>
          )}
          {data.result.problems.length > 0 && (
            <div className="problems">
              <strong>Publishing is refused until these are fixed:</strong>
              <ul>
                {data.result.problems.map((p, i) => (
                  <li key={i}>
                    <code>
                      {p.file}
                      {p.line ? `:${p.line}` : ''}
                    </code>{' '}
                    {p.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="tpl-buttons">
            <button
              type="button"
              className="primary"
              disabled={busy || d.stale !== null || data.result.problems.length > 0}
              onClick={() => d.publish.mutate(undefined, { onSuccess: () => setOpen(false) })}
            >
              Publish
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Keep editing
            </button>
          </div>
        </section>
      )}
    </>
  );
}
