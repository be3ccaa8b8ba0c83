import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { z } from 'zod';
import type { PolicyPreviewAnswer } from '../../../src/contract/routes/policy-preview.js';
import type { ChainListAnswer } from '../../../src/contract/templates.js';
import { get } from '../api.js';
import { CAPS, CAP_LABEL } from './policy-types.js';

type Preview = z.infer<typeof PolicyPreviewAnswer>;

/*
 * The caps every scope of one chain runs under with the draft laid over the published policy
 * (`GET /api/drafts/policy/policy/preview?chain=`): what a cap changed above does to a real chain
 * before it is published.
 */
export function PolicyPreview({ updatedAt, loads }: { updatedAt: string | null; loads: boolean }) {
  const id = useId();
  const chains = useQuery({
    queryKey: ['chains'],
    queryFn: () => get<ChainListAnswer>('/api/templates/chains'),
  });
  const [chosen, setChosen] = useState('');
  const chain = chosen || chains.data?.chains[0]?.id || '';
  const preview = useQuery({
    // The draft's last write is in the key: an op refetches the preview.
    queryKey: ['policy-preview', chain, updatedAt],
    queryFn: ({ signal }) =>
      get<Preview>(`/api/drafts/policy/policy/preview?chain=${encodeURIComponent(chain)}`, signal),
    // A draft whose policy.yaml does not load has no preview (422): it is not asked for.
    enabled: chain !== '' && loads,
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
        <div className="caps-scroll">
          <table className="preview" aria-label={`Caps of chain ${preview.data.chain}`}>
            <thead>
              <tr>
                <th scope="col">Scope</th>
                {CAPS.map((c) => (
                  <th key={c} scope="col">
                    {CAP_LABEL[c]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.data.scopes.map((s) => (
                <tr key={s.path} className={`scope-${s.kind}`}>
                  <th scope="row">
                    <code>{s.path}</code> <span className="muted small">{s.kind}</span>
                  </th>
                  {CAPS.map((c) => {
                    const v = s.caps[c];
                    return (
                      <td key={c} className={v.exceeds ? 'warn' : undefined}>
                        {v.value ?? <span className="muted">—</span>}
                        {v.value !== null && <span className="muted small"> {v.source}</span>}
                        {v.maximum && (
                          <div className="muted small">
                            ≤ {v.maximum.value} ({v.maximum.level}){v.exceeds ? ' — exceeds' : ''}
                          </div>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
