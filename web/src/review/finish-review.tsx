import { useState } from 'react';
import type { Review, ReviewOutcome } from '../../../src/contract/threads.js';
import type { Item } from '../api.js';
import { useFixTarget } from './review-data.js';

export interface Verdict {
  outcome: ReviewOutcome;
  summary: string;
  /** request_changes: a node other than the fix target to rerun; '' for the target. */
  node: string;
}

/** What a submitted review did, in words: the review's answer, not a guess. */
export function describeReview(r: Review): string {
  if (r.outcome === 'request_changes')
    return `Changes requested: ${r.node ?? 'the fix target'} reruns (fix round ${r.round ?? 1}).`;
  if (r.outcome === 'approve') return r.gate ? `Approved: ${r.gate} passed.` : 'Approved.';
  return 'Comment recorded.';
}

/**
 * Finish review: a summary and the verdict. Request changes says, from the server's fix target,
 * which node reruns and which fix round it starts; Approve is off while a must-fix thread is open
 * (posted or pending), as the server refuses it.
 */
export function FinishReview({
  item,
  gate,
  nodes,
  mustFix,
  pending,
  openThreads,
  busy,
  error,
  onSubmit,
  onClose,
}: {
  item: Item;
  gate: string | null;
  /** Exec nodes a request for changes may rerun instead of the target. */
  nodes: string[];
  mustFix: number;
  pending: number;
  openThreads: number;
  busy: boolean;
  error: string | null;
  onSubmit: (v: Verdict) => void;
  onClose: () => void;
}) {
  const [outcome, setOutcome] = useState<ReviewOutcome>('comment');
  const [summary, setSummary] = useState('');
  const [node, setNode] = useState('');
  const target = useFixTarget(item.id, node, outcome === 'request_changes');
  const t = target.data;
  const approveOff = mustFix > 0;
  const changesOff = outcome === 'request_changes' && (!t || t.node === null);
  const needsText =
    outcome === 'request_changes' && summary.trim() === '' && pending === 0 && openThreads === 0;
  return (
    <section className="rv-finish" role="dialog" aria-label="Finish review">
      <h2>Finish review</h2>
      <label className="rv-summary">
        Summary
        <textarea rows={3} value={summary} onChange={(e) => setSummary(e.target.value)} />
      </label>
      <fieldset>
        <legend className="muted small">Verdict</legend>
        <label>
          <input
            type="radio"
            name="outcome"
            checked={outcome === 'comment'}
            onChange={() => setOutcome('comment')}
          />{' '}
          Comment <span className="muted small">— post the comments; nothing moves</span>
        </label>
        <label>
          <input
            type="radio"
            name="outcome"
            disabled={approveOff}
            checked={outcome === 'approve'}
            onChange={() => setOutcome('approve')}
          />{' '}
          Approve{' '}
          <span className="muted small">
            {approveOff
              ? `— waits while ${mustFix === 1 ? 'a must-fix thread is' : `${mustFix} must-fix threads are`} open`
              : gate
                ? `— passes the gate ${gate}`
                : '— recorded; no gate waits'}
          </span>
        </label>
        <label>
          <input
            type="radio"
            name="outcome"
            checked={outcome === 'request_changes'}
            onChange={() => setOutcome('request_changes')}
          />{' '}
          Request changes <span className="muted small">— an agent reruns with the open threads</span>
        </label>
      </fieldset>
      {outcome === 'request_changes' && (
        <div className="rv-target" role="status">
          {target.isError ? (
            <span role="alert">{target.error.message}</span>
          ) : !t ? (
            'Finding what would rerun…'
          ) : t.node === null ? (
            `Nothing would rerun: ${t.reason ?? 'no fix target'}.`
          ) : (
            <>
              Reruns <strong>{t.node}</strong> — fix round {t.round}
              {t.gate ? `, back to the gate ${t.gate} after` : ''}; {openThreads + pending} open{' '}
              {openThreads + pending === 1 ? 'thread goes' : 'threads go'} to its agent.
            </>
          )}
          {nodes.length > 1 && (
            <label>
              {' '}
              Rerun{' '}
              <select value={node} onChange={(e) => setNode(e.target.value)}>
                <option value="">the fix target</option>
                {nodes.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
      {needsText && <p className="muted small">Say what to change, or comment on a line first.</p>}
      {error && <p role="alert">{error}</p>}
      <div className="rv-form-row">
        <button
          type="button"
          className="primary"
          disabled={busy || changesOff || needsText || (outcome === 'approve' && approveOff)}
          onClick={() => onSubmit({ outcome, summary: summary.trim(), node })}
        >
          Submit review
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  );
}
