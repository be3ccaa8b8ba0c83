import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatProblem } from '../../../../src/contract/problems.js';
import { ApiError } from '../../api.js';
import { chainsQuery, keys } from '../../queries.js';
import { newChain, useDraftList } from './draft-api.js';

/*
 * Every chain file with its node and gate counts and whether it resolves, each open draft marked
 * (a draft of a chain with no file yet is listed too: a new chain not published), and the two
 * ways to start one: a new empty chain, or a duplicate of one (`new_chain` with `from`).
 */

function NewChain({ from, onCancel }: { from: string | null; onCancel?: () => void }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [id, setId] = useState(from ? `${from}-copy` : '');
  const [error, setError] = useState<string | null>(null);
  const label = from ? `Id of the copy of ${from}` : 'Id of the new chain';
  return (
    <form
      className="ce-inline"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        newChain(id.trim(), from)
          .then(() => client.invalidateQueries({ queryKey: keys.drafts, exact: true }))
          .then(() => navigate(`/templates/chains/${encodeURIComponent(id.trim())}`))
          .catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)));
      }}
    >
      <input aria-label={label} placeholder="chain id" value={id} onChange={(e) => setId(e.target.value)} />
      <button type="submit" className="primary">
        {from ? 'Duplicate' : 'Create chain'}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      {error && (
        <span className="ce-problem" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

export function ChainsList() {
  const chains = useQuery(chainsQuery());
  const drafts = useDraftList();
  const [creating, setCreating] = useState(false);
  const [copying, setCopying] = useState<string | null>(null);
  const open = new Map((drafts.data ?? []).filter((d) => d.area === 'chains').map((d) => [d.key, d]));
  const listed = new Set((chains.data?.chains ?? []).map((c) => c.id));
  const unpublished = [...open.values()].filter((d) => !listed.has(d.key));
  const error = chains.error ?? drafts.error;
  return (
    <section className="ce-list" aria-label="Chains">
      <div className="ce-bar">
        <h2>Chains</h2>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New chain
        </button>
      </div>
      {creating && <NewChain from={null} onCancel={() => setCreating(false)} />}
      {error && (
        <p className="banner" role="alert">
          {error.message}
        </p>
      )}
      {chains.isPending && <p className="muted">Loading…</p>}
      <table className="ce-table">
        <thead>
          <tr>
            <th>Chain</th>
            <th>Nodes</th>
            <th>Gates</th>
            <th>State</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(chains.data?.chains ?? []).map((c) => {
            const d = open.get(c.id);
            return (
              <tr key={c.id}>
                <td>
                  <Link to={encodeURIComponent(c.id)}>{c.id}</Link>
                  {c.description && <div className="muted">{c.description}</div>}
                </td>
                <td>{c.nodes}</td>
                <td>{c.gates}</td>
                <td>
                  {d && (
                    <span className="chip chip-warn" title={`changed ${d.updated_at}`}>
                      draft: {d.changes} changes, {d.problems} problems
                    </span>
                  )}{' '}
                  {!c.resolves && (
                    <span className="chip chip-warn">
                      {c.problems.length} problem{c.problems.length === 1 ? '' : 's'}
                    </span>
                  )}
                  {c.problems.length > 0 && (
                    // The problems themselves, not just their count: the row is where a broken chain is found.
                    <ul className="ce-row-problems" aria-label={`Problems of ${c.id}`}>
                      {c.problems.map((p, i) => (
                        <li key={i}>{formatProblem(p)}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {copying === c.id ? (
                    <NewChain from={c.id} onCancel={() => setCopying(null)} />
                  ) : (
                    <button type="button" aria-label={`Duplicate ${c.id}`} onClick={() => setCopying(c.id)}>
                      Duplicate
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
          {unpublished.map((d) => (
            <tr key={d.key}>
              <td>
                <Link to={encodeURIComponent(d.key)}>{d.key}</Link>
                <div className="muted">not published yet</div>
              </td>
              <td />
              <td />
              <td>
                <span className="chip chip-warn">
                  draft: {d.changes} changes, {d.problems} problems
                </span>
              </td>
              <td />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
