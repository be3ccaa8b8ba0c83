import type { AddonReview } from './addons-data.js';

/*
 * The Content part of an add-on review: every prompt, steering text and skill the agents would
 * read, each in a collapsible block with the file it comes from. A changed one shows its unified
 * diff; a removed one is only named. The texts wrap and each scrolls on its own, so one long
 * skill does not push the rest (and the action buttons) out of reach.
 */

type Item = AddonReview['content'][number];

/** A unified diff with its added and removed lines marked; the file header lines say nothing new. */
export function UnifiedDiff({ text, label }: { text: string; label: string }) {
  const lines = text.split('\n').filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l));
  if (lines.at(-1) === '') lines.pop();
  return (
    <pre className="addon-text addon-diff" aria-label={label}>
      {lines.map((l, i) => {
        const head = l.startsWith('+++') || l.startsWith('---');
        const cls =
          l.startsWith('@@') || head
            ? 'addon-hunk'
            : l.startsWith('+')
              ? 'addon-add'
              : l.startsWith('-')
                ? 'addon-del'
                : undefined;
        return (
          // Each line is a block (addons.css), so a line keeps its colour when it wraps.
          <span key={i} className={cls}>
            {l === '' ? ' ' : l}
          </span>
        );
      })}
    </pre>
  );
}

function ContentItem({ item, showChange }: { item: Item; showChange: boolean }) {
  return (
    <li>
      <details className="addon-item" open>
        <summary>
          <span className="chip">{item.kind}</span> <strong>{item.where}</strong>{' '}
          <code className="muted small">{item.file}</code>
          {showChange && <span className={`chip addon-change-${item.change}`}>{item.change}</span>}
        </summary>
        {item.change === 'changed' && item.diff !== null ? (
          <UnifiedDiff text={item.diff} label={`Diff of ${item.where}`} />
        ) : (
          <pre className="addon-text" aria-label={`Text of ${item.where}`}>
            {item.text}
          </pre>
        )}
      </details>
    </li>
  );
}

export function ReviewContent({ review }: { review: AddonReview }) {
  const update = review.action !== 'install';
  const shown = review.content.filter((c) => c.change !== 'removed');
  const removed = review.content.filter((c) => c.change === 'removed');
  return (
    <section aria-labelledby="addon-content-title">
      <h3 id="addon-content-title">Content</h3>
      {shown.length === 0 && removed.length === 0 && (
        <p className="muted">
          {update ? 'No prompt, steering or skill changes.' : 'No prompt, steering or skill.'}
        </p>
      )}
      <ul className="addon-items" aria-label="Content">
        {shown.map((c) => (
          <ContentItem key={`${c.kind} ${c.where}`} item={c} showChange={update} />
        ))}
      </ul>
      {removed.length > 0 && (
        <>
          <h4>Removed</h4>
          <ul aria-label="Removed content">
            {removed.map((c) => (
              <li key={`${c.kind} ${c.where}`}>
                <span className="chip">{c.kind}</span> <del>{c.where}</del>{' '}
                <code className="muted small">{c.file}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {review.unchanged > 0 && <p className="muted small">{review.unchanged} unchanged</p>}
    </section>
  );
}
