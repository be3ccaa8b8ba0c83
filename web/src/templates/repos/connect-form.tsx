import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProbeAnswer, RepoView } from '../../../../src/contract/repos.js';
import { post } from '../../api.js';
import { ProbeSummary } from '../../repos/probe-summary.js';

/*
 * Connect a repository: probed first (`POST /api/repos/probe`), so the person sees the test and setup
 * commands Jig proposes and why, edits them, then connects (`POST /api/repos`), as the first-run
 * wizard does. A test command decided ("" = no tests) lets it be enabled at once.
 */

export function ConnectForm({ initial, onDone }: { initial: string; onDone: (r: RepoView) => void }) {
  const client = useQueryClient();
  const [path, setPath] = useState(initial);
  const [probe, setProbe] = useState<ProbeAnswer | null>(null);
  const [tests, setTests] = useState('');
  const [setup, setSetup] = useState('');
  const [noSetup, setNoSetup] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const look = async () => {
    setError(null);
    try {
      const p = await post<ProbeAnswer>('/api/repos/probe', { path });
      setProbe(p);
      setTests(p.test_command?.value ?? '');
      setSetup(p.setup_command?.value ?? '');
      setNoSetup(p.setup_command === null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const connect = async () => {
    if (!probe) return;
    setError(null);
    try {
      const repo = await post<RepoView>('/api/repos', {
        path: probe.path,
        test_command: tests,
        setup_command: noSetup ? '' : setup,
      });
      await client.invalidateQueries({ queryKey: ['repos'] });
      onDone(repo);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section className="tpl-card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a repository</h2>
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          void look();
        }}
      >
        <label>
          Path of a git checkout on this machine
          <input
            value={path}
            size={48}
            onChange={(e) => {
              setPath(e.target.value);
              setProbe(null);
            }}
            placeholder="/home/me/src/project"
            required
          />
        </label>
        <button type="submit">Look at it</button>
      </form>
      {probe && (
        <div className="probe">
          <ProbeSummary probe={probe} connectedNote="already connected: connecting again re-probes it" />
          {probe.workspace && (
            <p className="muted small">
              It has submodules: Jig proposes a workspace <code>{probe.workspace.name}</code> (
              {probe.workspace.reason}). Workspaces are set up in repos.yaml or by the first-run wizard.
            </p>
          )}
          <div className="row-form">
            <label>
              Test command (empty: the repository has no tests)
              <input value={tests} size={32} onChange={(e) => setTests(e.target.value)} />
            </label>
            <label>
              Setup command
              <input
                value={noSetup ? '' : setup}
                size={32}
                disabled={noSetup}
                onChange={(e) => setSetup(e.target.value)}
              />
            </label>
            <label className="check">
              <span>
                <input type="checkbox" checked={noSetup} onChange={(e) => setNoSetup(e.target.checked)} /> No
                setup needed
              </span>
            </label>
          </div>
          <div className="tpl-buttons">
            <button type="button" className="primary" onClick={() => void connect()}>
              Connect {probe.name}
            </button>
          </div>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
