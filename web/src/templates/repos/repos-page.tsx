import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RepoView } from '../../../../src/contract/repos.js';
import { callRoute, routes } from '../../api.js';
import { reposQuery } from '../../queries.js';
import { plural } from '../../words.js';
import '../library/templates.css';
import { ConnectForm } from './connect-form.js';
import { RepoEdit } from './repo-edit.js';
import { RepoSandbox } from './repo-sandbox.js';

/*
 * Repos: the repositories Jig runs on, straight through the repos routes (a repos.yaml entry changes at
 * once: Jig reads the file when it needs it, so there is nothing to publish), and the ones Jig found
 * by itself, to connect.
 */

function RepoRow({ r, onError }: { r: RepoView; onError: (m: string | null) => void }) {
  const client = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const [editing, setEditing] = useState(false);
  const query = { path: r.path };
  const run = async (f: () => Promise<unknown>) => {
    onError(null);
    try {
      await f();
      await client.invalidateQueries({ queryKey: reposQuery().queryKey });
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <>
      <tr>
        <th scope="row">
          {r.name}
          <div className="muted small">
            <code>{r.path}</code>
            {r.exists ? '' : ' (missing on disk)'}
          </div>
        </th>
        <td>
          <label>
            <input
              type="checkbox"
              aria-label={`${r.name} enabled`}
              checked={r.enabled}
              disabled={!r.enabled && r.needs.length > 0}
              onChange={(e) =>
                void run(() => callRoute(routes.patchRepo, { query, body: { enabled: e.target.checked } }))
              }
            />{' '}
            {r.enabled ? 'Enabled' : 'Disabled'}
          </label>
          {r.needs.length > 0 && (
            <div className="field-problem">decide {r.needs.join(', ')} to enable it</div>
          )}
        </td>
        <td>{r.default_chain}</td>
        <td className="small">
          {r.test_command === null ? (
            <span className="muted">undecided</span>
          ) : r.test_command === '' ? (
            <span className="muted">no tests</span>
          ) : (
            <code>{r.test_command}</code>
          )}
        </td>
        <td className="small">
          {r.setup_command === null || r.setup_command === '' ? (
            <span className="muted">no setup needed</span>
          ) : (
            <code>{r.setup_command}</code>
          )}
        </td>
        <td className="small">{plural(r.open_items, 'open item')}</td>
        <td>
          <div className="tpl-buttons">
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit {r.name}
            </button>
            {confirm ? (
              <>
                <button
                  type="button"
                  className="danger"
                  onClick={() => void run(() => callRoute(routes.disconnectRepo, { query }))}
                >
                  Remove for good
                </button>
                <button type="button" onClick={() => setConfirm(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirm(true)}>
                Remove {r.name}
              </button>
            )}
          </div>
        </td>
      </tr>
      {editing && (
        <tr>
          <td colSpan={7}>
            <RepoEdit r={r} onDone={() => setEditing(false)} />
            <RepoSandbox r={r} />
          </td>
        </tr>
      )}
    </>
  );
}

export function ReposPage() {
  const repos = useQuery(reposQuery());
  const [error, setError] = useState<string | null>(null);
  const [connectPath, setConnectPath] = useState<string | null>(null);
  const [connected, setConnected] = useState<string | null>(null);
  const data = repos.data;
  const mine = data?.repos.filter((r) => r.managed) ?? [];
  const found = data?.repos.filter((r) => !r.managed) ?? [];
  return (
    <div className="repos">
      {repos.error && <p role="alert">{repos.error.message}</p>}
      {error && <p role="alert">{error}</p>}
      {connected && (
        <p role="status" className="tpl-ok">
          Connected {connected}.
        </p>
      )}
      {connectPath === null ? (
        <div className="tpl-buttons">
          <button
            type="button"
            className="primary"
            onClick={() => {
              setConnected(null);
              setConnectPath(data?.suggested?.path ?? '');
            }}
          >
            Connect repo
          </button>
        </div>
      ) : (
        <ConnectForm
          key={connectPath}
          initial={connectPath}
          onDone={(r) => {
            setConnectPath(null);
            setConnected(r.name);
          }}
        />
      )}
      <section className="tpl-section" aria-labelledby="repos-title">
        <h2 id="repos-title">Connected repositories</h2>
        {data && mine.length === 0 && <p className="muted">None yet: connect one to run work items on it.</p>}
        {mine.length > 0 && (
          <div className="scroll-x">
            <table className="tpl-table">
              <thead>
                <tr>
                  <th>Repository</th>
                  <th>State</th>
                  <th>Default chain</th>
                  <th>Tests</th>
                  <th>Setup</th>
                  <th>Items</th>
                  <th>
                    <span className="muted">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {mine.map((r) => (
                  <RepoRow key={r.path} r={r} onError={setError} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="tpl-section" aria-labelledby="detected-title">
        <h2 id="detected-title">Detected</h2>
        {found.length === 0 && !data?.suggested && (
          <p className="muted">Jig has found no other repository.</p>
        )}
        <ul>
          {data?.suggested && (
            <li>
              <strong>{data.suggested.name}</strong> <code>{data.suggested.path}</code>{' '}
              <span className="muted small">the checkout the server was started in</span>{' '}
              <button type="button" onClick={() => setConnectPath(data.suggested?.path ?? '')}>
                Connect {data.suggested.name}…
              </button>
            </li>
          )}
          {found.map((r) => (
            <li key={r.path}>
              <strong>{r.name}</strong> <code>{r.path}</code>{' '}
              <button type="button" onClick={() => setConnectPath(r.path)}>
                Connect {r.name}…
              </button>
            </li>
          ))}
        </ul>
      </section>
      {data && data.workspaces.length > 0 && (
        <section className="tpl-section" aria-labelledby="ws-title">
          <h2 id="ws-title">Workspaces</h2>
          <ul>
            {data.workspaces.map((w) => (
              <li key={w.name}>
                <strong>{w.name}</strong> root <code>{w.root}</code>, {plural(w.members.length, 'member')}{' '}
                {w.ready ? (
                  <span className="chip">ready</span>
                ) : (
                  <span className="chip chip-warn">not ready</span>
                )}
                {w.problems.length > 0 && <span className="muted small"> {w.problems.join('; ')}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {data && data.warnings.length > 0 && (
        <ul className="problems" aria-label="repos.yaml warnings">
          {data.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
