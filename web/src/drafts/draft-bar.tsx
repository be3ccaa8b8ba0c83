import { useState } from 'react';
import { StalePanel } from '../settings/stale.js';
import { plural } from '../words.js';
import { impactText } from './impact.js';
import type { AreaDraft } from './use-area-draft.js';
import './draft-bar.css';

/**
 * A settings area draft's bar: what is pending, Undo, Discard, and Review & publish, which shows
 * the changes, what they reach and the problems before the publish, and the server's refusal if it
 * refuses (a stale publish with the diff of what changed on disk, to rebase or discard). `label`
 * names the files the draft holds ("policy.yaml").
 */
export function DraftBar({ d, label }: { d: AreaDraft; label: string }) {
  const [reviewing, setReviewing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const draft = d.draft;
  if (!draft) return null;
  const result = draft.result;
  const busy = d.busy || d.barBusy;
  const then = (ok: boolean, note: string | null) => {
    if (!ok) return;
    setReviewing(false);
    setDone(note);
  };
  const discard = async () => then(await d.discard(), `Draft discarded: this is the published ${label}.`);
  const impact = impactText(result.impact);
  return (
    <div
      className="draft-bar"
      role={draft.draft ? 'region' : undefined}
      aria-label={draft.draft ? 'Draft' : undefined}
    >
      <div className="draft-bar-row">
        {draft.draft ? (
          <span role="status">
            Draft: {plural(result.changes.length, 'change')}
            {result.problems.length > 0 ? `, ${result.problems.length} to fix` : ''}
          </span>
        ) : (
          <span role="status" className="muted">
            {done ?? `No unpublished changes: this is the published ${label}.`}
          </span>
        )}
        {draft.draft && <span className="muted small">of {label}</span>}
        <span className="spacer" />
        <button
          type="button"
          disabled={!draft.draft || busy}
          onClick={() => void d.undo().then((ok) => ok && setDone(null))}
        >
          Undo
        </button>
        <button type="button" disabled={!draft.draft || busy} onClick={() => void discard()}>
          Discard draft
        </button>
        <button
          type="button"
          className="primary"
          disabled={!draft.draft || busy}
          aria-expanded={reviewing}
          onClick={() => {
            setDone(null);
            setReviewing((r) => !r);
          }}
        >
          Review & publish
        </button>
      </div>
      {d.refusal && (
        <p className="banner error" role="alert">
          {d.refusal}
        </p>
      )}
      {d.error && (
        <p className="banner error" role="alert">
          {d.error}
        </p>
      )}
      {d.stale && (
        <StalePanel
          stale={d.stale}
          busy={busy}
          onRebase={() => void d.rebase()}
          onDiscard={() => void discard()}
        />
      )}
      {reviewing && draft.draft && (
        <section className="review-publish" aria-label="Review and publish">
          <h3>Changes</h3>
          <ul className="changes" aria-label="Changes">
            {result.changes.map((c, i) => (
              <li key={i}>
                <code>{c.path}</code> {c.summary}
                {c.file && c.file !== c.path ? <span className="muted small"> ({c.file})</span> : null}
              </li>
            ))}
          </ul>
          {impact && <p className="muted">Impact: {impact}</p>}
          {result.yaml_error && (
            <p className="field-problems">
              <code>
                {result.yaml_error.file}:{result.yaml_error.line ?? '?'}
              </code>{' '}
              {result.yaml_error.message}
            </p>
          )}
          {result.problems.length > 0 ? (
            <>
              <h3>To fix before publishing</h3>
              <ul className="field-problems">
                {result.problems.map((p, i) => (
                  <li key={i}>
                    <code>{[p.path, p.field].filter(Boolean).join('.') || `${p.file}:${p.line ?? '?'}`}</code>{' '}
                    {p.message}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">Checked as a reload would: no problems.</p>
          )}
          <div className="buttons">
            <button type="button" onClick={() => setReviewing(false)}>
              Keep editing
            </button>
            <button
              type="button"
              className="primary"
              disabled={busy || d.stale !== null || result.problems.length > 0}
              onClick={() => void d.publish().then((ok) => then(ok, `Published ${label}.`))}
            >
              Publish
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
