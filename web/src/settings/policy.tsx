import { DraftBar } from '../drafts/draft-bar.js';
import { FieldProblems } from './draft.js';
import { FieldVersion } from './field.js';
import { CapsTable, PolicyFields, Severities } from './policy-parts.js';
import { PolicyLoops } from './policy-loops.js';
import { PolicyPreview } from './policy-preview.js';
import { PolicySandbox } from './policy-sandbox.js';
import { usePolicy } from './use-policy.js';

/*
 * Settings › Policy: policy.yaml through the `policy` draft. Each field sends one `set_value` op
 * (scope and dotted key as the drafts doc lists them, policy-fields.ts); its problems show beside
 * it; nothing runs differently until Review & publish.
 */

export function PolicyPage() {
  const p = usePolicy();
  const { d, resolved: r } = p;
  if (d.loadError)
    return (
      <p className="banner error" role="alert">
        {d.loadError.message}
      </p>
    );
  if (!d.draft) return <p className="muted">Loading the policy…</p>;
  const parts = r ? { r, at: p.at, set: p.set, busy: d.busy } : null;
  return (
    <div className="settings-area">
      <DraftBar d={d} label="policy.yaml" />
      {!p.loads && (
        <p className="banner error" role="alert">
          The draft&apos;s policy.yaml does not load until its problems are fixed (or Undo).
        </p>
      )}
      <FieldVersion.Provider value={p.version}>
        {parts && (
          <>
            <section className="settings-card" aria-labelledby="caps-h">
              <h2 id="caps-h">Caps per scope</h2>
              <p className="muted">
                Each level&apos;s default applies where a chain sets nothing; its maximum bounds what any
                chain may set. Empty: no cap.
              </p>
              <CapsTable {...parts} />
            </section>
            <section className="settings-card" aria-labelledby="budget-h">
              <h2 id="budget-h">Budget and attempts</h2>
              <PolicyFields section="budget" {...parts} />
              {parts.r.limits.work_item_usd.binding && (
                <p className="muted small">
                  An item&apos;s budget is bound by <code>{parts.r.limits.work_item_usd.binding.key}</code> ={' '}
                  {parts.r.limits.work_item_usd.binding.value}.
                </p>
              )}
            </section>
            <PolicyLoops d={d} r={parts.r} at={p.at} />
            <section className="settings-card" aria-labelledby="esc-h">
              <h2 id="esc-h">Escalation and retries</h2>
              <PolicyFields section="escalation" {...parts} />
            </section>
            <section className="settings-card" aria-labelledby="house-h">
              <h2 id="house-h">Housekeeping</h2>
              <PolicyFields section="housekeeping" {...parts} />
              <Severities {...parts} />
            </section>
            <PolicySandbox {...parts} />
            <PolicyPreview updatedAt={d.draft.updated_at} loads={p.loads} busy={d.busy} />
          </>
        )}
      </FieldVersion.Provider>
      {p.unplaced.length > 0 && (
        <section className="settings-card" aria-labelledby="other-h">
          <h2 id="other-h">Other problems</h2>
          <FieldProblems problems={p.unplaced} />
        </section>
      )}
    </div>
  );
}
