import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { chainsQuery, policyPreviewQuery } from '../queries.js';
import { CapsGrid } from './caps-grid.js';

/*
 * The caps every scope of one chain runs under with the draft laid over the published policy
 * (the policy draft's preview on a chain): what a cap changed above does to a real chain
 * before it is published.
 */
export function PolicyPreview({
  updatedAt,
  loads,
  busy,
}: {
  updatedAt: string | null;
  loads: boolean;
  /** An op in flight: a preview asked now could be answered after it, against a draft that no longer loads. */
  busy: boolean;
}) {
  const id = useId();
  const chains = useQuery(chainsQuery());
  const [chosen, setChosen] = useState('');
  const chain = chosen || chains.data?.chains[0]?.id || '';
  const preview = useQuery({
    // The draft's last write is in the key: an op refetches the preview.
    ...policyPreviewQuery(chain, updatedAt),
    // A draft whose policy.yaml does not load has no preview (422): it is not asked for. Nor is it
    // while an op is in flight (the chains list can arrive then and enable it): the op's answer
    // gives the key to ask with, and says whether the draft still loads.
    enabled: chain !== '' && loads && !busy,
  });

  return (
    <section className="settings-card" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview on a chain</h2>
      <label htmlFor={id}>Chain </label>
      <select id={id} value={chain} onChange={(e) => setChosen(e.target.value)}>
        {(chains.data?.chains ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.id}
          </option>
        ))}
      </select>
      {!loads && <p className="muted">No preview while the draft&apos;s policy.yaml does not load.</p>}
      {preview.error && (
        <p className="banner error" role="alert">
          {preview.error.message}
        </p>
      )}
      {loads && preview.data && (
        <CapsGrid
          className="preview"
          label={`Caps of chain ${preview.data.chain}`}
          corner="Scope"
          rows={preview.data.scopes}
          rowKey={(s) => s.path}
          rowClass={(s) => `scope-${s.kind}`}
          head={(s) => (
            <>
              <code>{s.path}</code> <span className="muted small">{s.kind}</span>
            </>
          )}
          cell={(s, c) => {
            const v = s.caps[c];
            return (
              <td className={v.exceeds ? 'warn' : undefined}>
                {v.value ?? <span className="muted">—</span>}
                {v.value !== null && <span className="muted small"> {v.source}</span>}
                {v.maximum && (
                  <div className="muted small">
                    ≤ {v.maximum.value} ({v.maximum.level}){v.exceeds ? ' — exceeds' : ''}
                  </div>
                )}
              </td>
            );
          }}
        />
      )}
    </section>
  );
}
