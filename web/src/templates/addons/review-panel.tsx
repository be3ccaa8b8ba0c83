import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { callRoute, routes } from '../../api.js';
import { addonReviewQuery, type AddonReviewTarget } from '../../queries.js';
import { at, isStale, messageOf, useRefresh, type AddonReview, type InstalledAddon } from './addons-data.js';
import { ReviewContent } from './review-content.js';

/*
 * The review of an install or an update, as the server computes it (ADR 0020): the header, what
 * the add-on can reach, every text its agents would read, and the problems that stop it. The
 * Install or Update button sends back the review's digest, so what is applied is what was read;
 * when the add-on changed meanwhile the server refuses and the person reads the new review.
 */

export type ReviewTarget = AddonReviewTarget;

function title(r: AddonReview): string {
  const change = `${r.from?.version ?? '?'} → ${r.to.version}`;
  switch (r.action) {
    case 'install':
      return `Install ${r.addon} ${r.to.version} from ${r.collection} as ${r.namespace}`;
    case 'update':
      return `Update ${r.namespace} ${change}`;
    case 'downgrade':
      return `Downgrade ${r.namespace} ${change}`;
    case 'none':
      return `${r.namespace} ${r.to.version}: its collection has no other version`;
  }
}

const ACTION_LABEL = { install: 'Install', update: 'Update', downgrade: 'Downgrade' } as const;

function apply(t: ReviewTarget, review: string): Promise<InstalledAddon> {
  if (t.kind === 'update')
    return callRoute(routes.applyUpdate, { params: { namespace: t.namespace }, body: { review } });
  return callRoute(routes.installAddon, {
    body: { addon: t.addon, collection: t.collection, ...(t.as ? { as: t.as } : {}), review },
  });
}

function Reach({ r }: { r: AddonReview }) {
  // An install adds every line: marking each "new" would say nothing.
  const marks = r.action !== 'install';
  const added = new Set(r.reach.added);
  return (
    <section aria-labelledby="addon-reach-title">
      <h3 id="addon-reach-title">Reach</h3>
      {r.reach.lines.length === 0 && r.reach.removed.length === 0 && (
        <p className="muted">No gate, merge step, harness, model or limit.</p>
      )}
      <ul className="addon-reach" aria-label="Reach">
        {r.reach.lines.map((l) => (
          <li key={l}>
            {l}
            {marks && added.has(l) && <span className="chip addon-change-new">new</span>}
          </li>
        ))}
        {r.reach.removed.map((l) => (
          <li key={`removed ${l}`}>
            <del>{l}</del> <span className="muted small">removed</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ReviewPanel({
  target,
  onClose,
  onDone,
}: {
  target: ReviewTarget;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const refresh = useRefresh();
  const heading = useRef<HTMLHeadingElement>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const review = useQuery(addonReviewQuery(target));
  const r = review.data;
  useEffect(() => heading.current?.focus(), [target]);
  const go = async () => {
    if (!r) return;
    setError(null);
    setBusy(true);
    try {
      const done = await apply(target, r.review);
      await refresh();
      const verb = r.action === 'install' ? 'Installed' : r.action === 'update' ? 'Updated' : 'Downgraded';
      onDone(`${verb} ${done.addon} ${done.version} as ${done.namespace}.`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const action = r && r.action !== 'none' ? ACTION_LABEL[r.action] : null;
  return (
    <section className="tpl-card addon-review" aria-labelledby="addon-review-title">
      <h2 id="addon-review-title" ref={heading} tabIndex={-1}>
        {r ? title(r) : 'Review'}
      </h2>
      {review.isPending && <p className="muted">Reading the add-on…</p>}
      {review.error && <p role="alert">{review.error.message}</p>}
      {r && (
        <>
          <p className="muted small">
            {r.addon} from {r.collection}
            {r.commit ? ` at ${r.commit.slice(0, 12)}` : ' (a directory, read as it is now)'}
          </p>
          <Reach r={r} />
          <ReviewContent review={r} />
          {r.problems.length > 0 && (
            <div className="problems" role="note" aria-label="Problems">
              It cannot be {r.action === 'install' ? 'installed' : 'applied'} here:
              <ul>
                {r.problems.map((p, i) => (
                  <li key={i}>
                    <code>{at(p)}</code> {p.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      <div className="addon-actions">
        {error !== null && (
          <p role="alert" className="addon-refusal">
            {messageOf(error)}
            {isStale(error) && (
              <>
                {' '}
                <button
                  type="button"
                  onClick={() => {
                    setError(null);
                    void review.refetch();
                  }}
                >
                  Read the review again
                </button>
              </>
            )}
          </p>
        )}
        {r && action && r.problems.length === 0 && (
          <button
            type="button"
            className="primary"
            disabled={busy || review.isFetching}
            onClick={() => void go()}
          >
            {action}
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close review
        </button>
      </div>
    </section>
  );
}
