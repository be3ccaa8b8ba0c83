import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { CleanupAnswer, StorageAnswer } from '../../../src/contract/storage.js';
import { callRoute, routes } from '../api.js';
import { storageQuery } from '../queries.js';
import { bytes } from './bytes.js';

/*
 * Settings › Storage: what Jig's home takes (the storage route), and the clean-up of ended items'
 * worktrees: first the server's dry run (what would go, and how much), then the real one after a
 * confirm, which frees exactly what the preview listed.
 */

export function StoragePage() {
  const q = useQuery(storageQuery());
  if (q.error)
    return (
      <p className="banner error" role="alert">
        {q.error.message}
      </p>
    );
  const s = q.data;
  if (!s) return <p className="muted">Measuring…</p>;
  const parts = [
    ['Database', s.database_bytes],
    ['Worktrees', s.worktrees_bytes],
    ['Logs', s.logs_bytes],
    ['Results', s.results_bytes],
    ['Attachments', s.attachments_bytes],
  ] as const;

  return (
    <div className="settings-area">
      <section className="settings-card" aria-labelledby="use-h">
        <h2 id="use-h">Use</h2>
        <p>
          <code>{s.home}</code> takes <strong>{bytes(s.total_bytes)}</strong>.
        </p>
        <div className="use-bar" aria-hidden="true">
          {parts.map(([name, n]) => (
            <span key={name} className={`use-${name.toLowerCase()}`} style={{ flexGrow: n }} title={name} />
          ))}
        </div>
        <table className="use">
          <tbody>
            {parts.map(([name, n]) => (
              <tr key={name}>
                <th scope="row">
                  <span className={`swatch use-${name.toLowerCase()}`} /> {name}
                </th>
                <td>{bytes(n)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Items holding disk</h3>
        {s.items.length === 0 ? (
          <p className="muted">No item holds a worktree or logs.</p>
        ) : (
          <table className="items-disk">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Status</th>
                <th scope="col">Worktree</th>
                <th scope="col">Logs</th>
              </tr>
            </thead>
            <tbody>
              {s.items.map((i) => (
                <tr key={i.id}>
                  <td>
                    <Link to={`/work-items/${i.id}`}>{i.title}</Link>
                    {i.archived && <span className="muted small"> archived</span>}
                  </td>
                  <td>{i.status}</td>
                  <td>{bytes(i.worktree_bytes)}</td>
                  <td>{bytes(i.log_bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Cleanup reclaimable={s.reclaimable} />
    </div>
  );
}

function Cleanup({ reclaimable }: { reclaimable: StorageAnswer['reclaimable'] }) {
  const client = useQueryClient();
  const id = useId();
  const [days, setDays] = useState('0');
  const [preview, setPreview] = useState<CleanupAnswer | null>(null);
  const [freed, setFreed] = useState<CleanupAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(dry: boolean) {
    setBusy(true);
    setError(null);
    try {
      const answer = await callRoute(routes.cleanupStorage, {
        query: { older_than_days: days.trim() || '0', ...(dry ? { dry_run: '1' } : {}) },
      });
      if (dry) {
        setPreview(answer);
        setFreed(null);
      } else {
        setPreview(null);
        setFreed(answer);
        await client.invalidateQueries({ queryKey: storageQuery().queryKey });
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="settings-card" aria-labelledby="cleanup-h">
      <h2 id="cleanup-h">Clean-up</h2>
      <p className="muted">
        Removes the worktrees of completed and cancelled items that are not archived. Their branches stay (the
        commits are the items&apos; results); uncommitted files in those worktrees are lost. Logs are kept.
        Now reclaimable: {reclaimable.items} {reclaimable.items === 1 ? 'item' : 'items'},{' '}
        {bytes(reclaimable.bytes)}.
      </p>
      <div className="buttons">
        <label htmlFor={id}>Only items ended at least (days) ago</label>
        <input
          id={id}
          className="days"
          inputMode="numeric"
          value={days}
          onChange={(e) => {
            setDays(e.target.value);
            setPreview(null);
          }}
        />
        <button disabled={busy} onClick={() => void run(true)}>
          Preview clean-up
        </button>
      </div>
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <div className="cleanup-preview" role="region" aria-label="Clean-up preview">
          {preview.items.length === 0 ? (
            <p role="status">Nothing to clean up.</p>
          ) : (
            <>
              <p role="status">
                {preview.items.length} {preview.items.length === 1 ? 'worktree' : 'worktrees'} would go,
                freeing {bytes(preview.bytes)}:
              </p>
              <ul>
                {preview.items.map((i) => (
                  <li key={i.id}>
                    <Link to={`/work-items/${i.id}`}>{i.title}</Link>{' '}
                    <span className="muted">{i.status}</span> {bytes(i.bytes)}{' '}
                    <code className="small">{i.worktree_path}</code>
                  </li>
                ))}
              </ul>
              <div className="buttons">
                <button onClick={() => setPreview(null)}>Cancel</button>
                <button className="danger" disabled={busy} onClick={() => void run(false)}>
                  Remove {preview.items.length} {preview.items.length === 1 ? 'worktree' : 'worktrees'}
                </button>
              </div>
            </>
          )}
        </div>
      )}
      {freed && (
        <p role="status">
          Removed {freed.items.length} {freed.items.length === 1 ? 'worktree' : 'worktrees'}, freeing{' '}
          {bytes(freed.bytes)}.
        </p>
      )}
    </section>
  );
}
